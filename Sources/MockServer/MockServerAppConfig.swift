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
            baseURL: baseURL, port: UInt16(clamping: port), baseURLEnvironmentKey: baseURLEnvironmentKey,
            portEnvironmentKey: portEnvironmentKey, useMockServerArgument: useMockServerArgument)
    }
}

/// For the app side: whether it was launched against a mock server, and where it is
/// (SwiftMockServer's `MockServerDetector`, reading what ``MockServerAppConfig`` sets).
public enum MockServerDetector: Sendable {
    /// The launch argument that says "use the mock server".
    public static let useMockServerArgument = "-useMockServer"
    /// The environment key of the base URL.
    public static let baseURLEnvironmentKey = "MOCK_SERVER_URL"
    /// The environment key of the port.
    public static let portEnvironmentKey = "MOCK_SERVER_PORT"

    /// Whether the process was launched with `-useMockServer`.
    public static var isUsingMockServer: Bool {
        ProcessInfo.processInfo.arguments.contains(useMockServerArgument)
    }

    /// `MOCK_SERVER_URL` from the environment.
    public static var baseURL: String? {
        ProcessInfo.processInfo.environment[baseURLEnvironmentKey]
    }

    /// `MOCK_SERVER_PORT` from the environment, when it is a port number.
    public static var port: UInt16? {
        ProcessInfo.processInfo.environment[portEnvironmentKey].flatMap { UInt16($0) }
    }
}
