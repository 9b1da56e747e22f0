import Foundation
import Locks
import StandardStreams
import WorkerContract

/// An HTTP/1.1 mock server on loopback, with SwiftMockServer's API, for UI tests.
///
/// ```swift
/// let server = try await MockServer.create()
/// await server.registerCatchAll { _ in .status(.notFound) }
/// await server.register(.GET, "/character") { _ in .json(data) }
/// app.launchEnvironment["API_BASE_URL"] = await server.baseURL
/// …
/// await server.stop()
/// ```
///
/// Requests are answered on SwiftNIO's event loops: static routes (`stub`, `stubJSON`,
/// scenarios) without leaving the loop, closure routes in a task. Every request is
/// recorded; `stop()` writes the journal to the test's artifacts folder.
public actor MockServer {
    /// The port the server listens on, on 127.0.0.1 and ::1; the requested port (0 when
    /// automatic) until `start()` has bound it.
    ///
    /// Actor-isolated, as SwiftMockServer's, so its spelling `await server.port` compiles
    /// without a warning; code that cannot await uses the nonisolated ``ipv4BaseURL``.
    public var port: UInt16 { currentPort }
    let shared: SharedState
    private let portChoice: PortChoice
    private let boundPort: Locked<Int>
    private var listener: Listener?
    private let connections: ConnectionRegistry
    let artifactsDirectory: URL?

    /// How `start()` picks the port to bind.
    enum PortChoice: Sendable, Equatable {
        /// Exactly this port (0: a free one); a port in use is an error.
        case exact(Int)
        /// `ROBOTCI_MOCK_PORT` when robotci set it and it is free, else a free port
        /// (SwiftMockServer's `port: 0`, which promises a working server).
        case automatic
    }

    /// Starts a server and returns it, ready for routes.
    ///
    /// - Parameters:
    ///   - port: the port to listen on (0: a free one); `nil` uses `ROBOTCI_MOCK_PORT` when
    ///     robotci set it and it is free, else a free port, so a test may start several.
    ///   - artifactsDirectory: where `stop()` writes `mock-requests.json`; `nil` uses
    ///     `ROBOTCI_ARTIFACTS_DIR` when set, else the journal is not written.
    ///   - configuration: default response, limits (body, connections, idle time), allowed
    ///     origins, journal size.
    /// - Throws: ``MockServerError`` `.invalidConfiguration`, `.invalidPort`, `.portInUse`, `.bindFailed`.
    public static func create(
        port: Int? = nil,
        artifactsDirectory: URL? = nil,
        configuration: Configuration = Configuration()
    ) async throws -> MockServer {
        try configuration.validate()
        let environment = ProcessInfo.processInfo.environment
        let choice = try portChoice(port, environment: environment)
        let artifacts = resolveArtifactsDirectory(artifactsDirectory, environment: environment)
        let server = MockServer(portChoice: choice, artifacts: artifacts, configuration: configuration)
        try await server.start()
        return server
    }

    /// SwiftMockServer's `MockServer.create(port:defaultResponse:)`: creates and starts a server.
    /// Port 0 is automatic: the worker's `ROBOTCI_MOCK_PORT` when it is free, else any free port.
    @_disfavoredOverload
    public static func create(
        port: UInt16 = 0,
        defaultResponse: MockHTTPResponse = .status(.notFound)
    ) async throws -> MockServer {
        let server = MockServer(port: port, defaultResponse: defaultResponse)
        try await server.start()
        return server
    }

    /// SwiftMockServer's `MockServer(port:defaultResponse:)`: a server that listens once
    /// `start()` is called. Port 0 (the default) is automatic: the worker's
    /// `ROBOTCI_MOCK_PORT` when robotci set it and it is free, else any free port.
    /// The journal goes to `ROBOTCI_ARTIFACTS_DIR` when set.
    public init(port: UInt16 = 0, defaultResponse: MockHTTPResponse = .status(.notFound)) {
        let environment = ProcessInfo.processInfo.environment
        self.init(
            portChoice: port == 0 ? .automatic : .exact(Int(port)),
            artifacts: Self.resolveArtifactsDirectory(nil, environment: environment),
            configuration: Configuration(defaultResponse: defaultResponse))
    }

    private init(portChoice: PortChoice, artifacts: URL?, configuration: Configuration) {
        self.portChoice = portChoice
        if case .exact(let port) = portChoice {
            boundPort = Locked(port)
        } else {
            boundPort = Locked(0)
        }
        let shared = SharedState(configuration: configuration)
        self.shared = shared
        connections = ConnectionRegistry(limit: configuration.maxConnections) { shared.warn($0) }
        artifactsDirectory = artifacts
    }

    deinit {
        guard let listener else { return }
        for channel in listener.channels {
            channel.close(promise: nil)
        }
        connections.closeAllNow()
    }

    /// `http://[::1]:PORT`, as SwiftMockServer's, to hand to the app under test;
    /// `http://127.0.0.1:PORT` when ::1 is not served (a host without IPv6, or
    /// ``Configuration/ipv6`` off). Both loopbacks answer on the same port.
    public var baseURL: String {
        listener?.servesIPv6 ?? shared.ipv6 ? "http://[::1]:\(port)" : "http://127.0.0.1:\(port)"
    }

    /// `http://127.0.0.1:PORT`, for a client that cannot use IPv6.
    public nonisolated var ipv4BaseURL: String {
        "http://127.0.0.1:\(currentPort)"
    }

    /// `port`, readable from any isolation: the lock, not the actor, guards it.
    private nonisolated var currentPort: UInt16 { UInt16(clamping: boundPort.withLock { $0 }) }

    /// Whether the server accepts connections (between `start()` and `stop()`).
    public var isRunning: Bool {
        listener != nil
    }

    /// How many client connections are open.
    nonisolated var connectionCount: Int {
        connections.openCount
    }

    /// Binds the port and starts answering. `create(…)` calls it for you; a server made
    /// with `MockServer(port:defaultResponse:)` needs it, and a stopped one may be started
    /// again (routes and journal are kept; an automatic port may change).
    ///
    /// - Throws: ``MockServerError`` `.alreadyRunning`, `.portInUse`, `.bindFailed`.
    public func start() async throws {
        guard listener == nil else { throw MockServerError.alreadyRunning }
        connections.reopen()
        let bound: Listener
        switch portChoice {
        case .exact(let port):
            bound = try await Listener.bind(port: port, ipv6: shared.ipv6, shared: shared, connections: connections)
        case .automatic:
            let workerPort = ProcessInfo.processInfo.environment[WorkerVariable.mockPort.name].flatMap {
                Int($0.trimmingCharacters(in: .whitespaces))
            }
            if let workerPort, (1...65535).contains(workerPort),
                let onWorkerPort = try? await Listener.bind(
                    port: workerPort, ipv6: shared.ipv6, shared: shared, connections: connections)
            {
                bound = onWorkerPort
            } else {
                bound = try await Listener.bind(port: 0, ipv6: shared.ipv6, shared: shared, connections: connections)
            }
        }
        listener = bound
        boundPort.withLock { $0 = bound.port }
        MockServerProcess.current.servers.add(self)
    }

    /// SwiftMockServer's convenience: `start()`, then `baseURL`.
    public func startAndGetURL() async throws -> String {
        try await start()
        return baseURL
    }

    /// Closes the listening sockets and every open connection, then writes the request
    /// journal to the artifacts folder (if there is one). Calling it twice does nothing.
    ///
    /// Never throws, like SwiftMockServer's: a journal that cannot be written is reported on
    /// stderr. Use ``stopOrThrow()`` to get that failure as an error.
    public func stop() async {
        do {
            try await stopOrThrow()
        } catch {
            StandardStream.error.write("MockServer: \(error)\n")
        }
    }

    /// ``stop()``, throwing ``MockServerError`` `.journalNotWritten` when the request journal
    /// cannot be written to the artifacts folder.
    public func stopOrThrow() async throws {
        guard let running = listener else { return }
        listener = nil
        MockServerProcess.current.servers.remove(self)
        await running.close()
        await connections.closeAll()
        if let artifactsDirectory {
            try RequestJournalFile.write(shared.journal.all, to: artifactsDirectory)
        }
    }

    /// The explicit port exactly; without one, automatic (`ROBOTCI_MOCK_PORT` when free, else
    /// any free port), after checking that `ROBOTCI_MOCK_PORT`, when set, is a port number.
    static func portChoice(_ port: Int?, environment: [String: String]) throws -> PortChoice {
        if let port {
            return .exact(try validated(port, source: "port"))
        }
        if let text = environment[WorkerVariable.mockPort.name], !text.isEmpty {
            _ = try parsePort(text, source: WorkerVariable.mockPort.name)
        }
        return .automatic
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
