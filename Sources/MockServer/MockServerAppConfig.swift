import Foundation

/// What an app under test needs to find the mock server: launch arguments and
/// environment (SwiftMockServer's `MockServerAppConfig`).
///
/// ```swift
/// let config = await server.appConfig()
/// app.launchArguments += config.launchArguments
/// app.launchEnvironment.merge(config.launchEnvironment) { _, new in new }
/// ```
public struct MockServerAppConfig: Sendable {
    /// The server's base URL.
    public let baseURL: String
    /// The server's port.
    public let port: UInt16
    /// `[useMockServerArgument] + additionalArguments`.
    public let launchArguments: [String]
    /// The base URL and port under their keys, plus `additionalEnvironment`.
    public let launchEnvironment: [String: String]

    /// A configuration with the keys the app reads (the defaults are ``MockServerDetector``'s).
    public init(
        baseURL: String,
        port: UInt16,
        baseURLEnvironmentKey: String = MockServerDetector.baseURLEnvironmentKey,
        portEnvironmentKey: String = MockServerDetector.portEnvironmentKey,
        useMockServerArgument: String = MockServerDetector.useMockServerArgument,
        additionalArguments: [String] = [],
        additionalEnvironment: [String: String] = [:]
    ) {
        self.baseURL = baseURL
        self.port = port
        launchArguments = [useMockServerArgument] + additionalArguments
        launchEnvironment = [baseURLEnvironmentKey: baseURL, portEnvironmentKey: String(port)]
            .merging(additionalEnvironment) { _, added in added }
    }
}

extension MockServer {
    /// The launch arguments and environment that point an app at this server.
    public func appConfig(
        baseURLEnvironmentKey: String = MockServerDetector.baseURLEnvironmentKey,
        portEnvironmentKey: String = MockServerDetector.portEnvironmentKey,
        useMockServerArgument: String = MockServerDetector.useMockServerArgument
    ) async -> MockServerAppConfig {
        MockServerAppConfig(
            baseURL: baseURL, port: port, baseURLEnvironmentKey: baseURLEnvironmentKey,
            portEnvironmentKey: portEnvironmentKey, useMockServerArgument: useMockServerArgument)
    }
}

/// For the app side: whether it was launched against a mock server, and where it is
/// (SwiftMockServer's `MockServerDetector`, reading what ``MockServerAppConfig`` sets).
/// The functions take the arguments and environment, so an app's own wiring can be tested.
public enum MockServerDetector: Sendable {
    /// The launch argument that says "use the mock server".
    public static let useMockServerArgument = "-useMockServer"
    /// The environment key of the base URL.
    public static let baseURLEnvironmentKey = "MOCK_SERVER_URL"
    /// The environment key of the port.
    public static let portEnvironmentKey = "MOCK_SERVER_PORT"

    /// Whether this process was launched with `-useMockServer`.
    public static var isUsingMockServer: Bool {
        isUsingMockServer(arguments: ProcessInfo.processInfo.arguments)
    }

    /// `MOCK_SERVER_URL` from this process's environment.
    public static var baseURL: String? {
        baseURL(from: ProcessInfo.processInfo.environment)
    }

    /// `MOCK_SERVER_PORT` from this process's environment, when it is a port number.
    public static var port: UInt16? {
        port(from: ProcessInfo.processInfo.environment)
    }

    /// Whether `arguments` contain `flag`.
    public static func isUsingMockServer(arguments: [String], flag: String = useMockServerArgument) -> Bool {
        arguments.contains(flag)
    }

    /// The base URL under `key` in `environment`.
    public static func baseURL(from environment: [String: String], key: String = baseURLEnvironmentKey) -> String? {
        environment[key]
    }

    /// The port under `key` in `environment`; `nil` when missing or not in 0...65535.
    public static func port(from environment: [String: String], key: String = portEnvironmentKey) -> UInt16? {
        environment[key].flatMap { UInt16($0) }
    }
}
