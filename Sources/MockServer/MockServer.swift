import Foundation
import WorkerContract

/// An HTTP/1.1 mock server on loopback, with SwiftMockServer's API, for UI tests.
///
/// ```swift
/// let server = try await MockServer.create()
/// await server.registerCatchAll { _ in .status(.notFound) }
/// await server.register(.GET, "/character") { _ in .json(data) }
/// app.launchEnvironment["API_BASE_URL"] = await server.baseURL
/// …
/// try await server.stop()
/// ```
///
/// Requests are answered on SwiftNIO's event loops: static routes (`stub`, `stubJSON`,
/// scenarios) without leaving the loop, closure routes in a task. Every request is
/// recorded; `stop()` writes the journal to the test's artifacts folder.
public actor MockServer {
    /// The port the server listens on, on 127.0.0.1 (and ::1 when available).
    public nonisolated let port: Int
    let shared: SharedState
    private let listener: Listener
    private let connections: ConnectionRegistry
    private let artifactsDirectory: URL?
    private var isStopped = false

    /// Starts a server and returns it, ready for routes.
    ///
    /// - Parameters:
    ///   - port: the port to listen on; `nil` uses `ROBOTCI_MOCK_PORT` when robotci set it,
    ///     else 0, which lets the OS pick a free port.
    ///   - artifactsDirectory: where `stop()` writes `mock-requests.json`; `nil` uses
    ///     `ROBOTCI_ARTIFACTS_DIR` when set, else the journal is not written.
    ///   - configuration: default response, body limit, journal size.
    public static func create(
        port: Int? = nil,
        artifactsDirectory: URL? = nil,
        configuration: Configuration = Configuration()
    ) async throws -> MockServer {
        let environment = ProcessInfo.processInfo.environment
        let chosenPort = try resolvePort(port, environment: environment)
        let artifacts = resolveArtifactsDirectory(artifactsDirectory, environment: environment)
        let shared = SharedState(configuration: configuration)
        let connections = ConnectionRegistry()
        let listener = try await Listener.bind(port: chosenPort, shared: shared, connections: connections)
        return MockServer(listener: listener, shared: shared, connections: connections, artifacts: artifacts)
    }

    private init(listener: Listener, shared: SharedState, connections: ConnectionRegistry, artifacts: URL?) {
        self.port = listener.port
        self.listener = listener
        self.shared = shared
        self.connections = connections
        self.artifactsDirectory = artifacts
    }

    deinit {
        guard !isStopped else { return }
        for channel in listener.channels {
            channel.close(promise: nil)
        }
        connections.closeAllNow()
    }

    /// `http://127.0.0.1:PORT`, to hand to the app under test.
    public var baseURL: String {
        "http://127.0.0.1:\(port)"
    }

    /// Whether the server still accepts connections.
    public var isRunning: Bool {
        !isStopped
    }

    /// Closes the listening sockets and every open connection, then writes the request
    /// journal to the artifacts folder (if there is one). Calling it twice does nothing.
    public func stop() async throws {
        guard !isStopped else { return }
        isStopped = true
        await listener.close()
        await connections.closeAll()
        if let artifactsDirectory {
            try JournalWriter.write(shared.journal.entries, to: artifactsDirectory)
        }
    }

    /// The explicit port, else `ROBOTCI_MOCK_PORT`, else 0 (a free port).
    static func resolvePort(_ port: Int?, environment: [String: String]) throws -> Int {
        if let port {
            return try validated(port, source: "port")
        }
        guard let text = environment[WorkerVariable.mockPort.name], !text.isEmpty else { return 0 }
        return try parsePort(text, source: WorkerVariable.mockPort.name)
    }

    /// The explicit folder, else `ROBOTCI_ARTIFACTS_DIR`, else none.
    static func resolveArtifactsDirectory(_ directory: URL?, environment: [String: String]) -> URL? {
        if let directory { return directory }
        guard let path = environment[WorkerVariable.artifactsDirectory.name], !path.isEmpty else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    private static func parsePort(_ text: String, source: String) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw MockServerError.invalidPort(text, source: source)
        }
        return try validated(value, source: source)
    }

    private static func validated(_ port: Int, source: String) throws -> Int {
        guard (0...65535).contains(port) else {
            throw MockServerError.invalidPort(String(port), source: source)
        }
        return port
    }
}
