/// Everything MockServer can fail with; the message says what to do about it.
///
/// A struct over a private enum (as in Hummingbird), so new kinds of failure can be
/// added without breaking anyone's `switch`.
public struct MockServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; compare with the static members (`.portInUse`, …).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String {
            case invalidPort, portInUse, bindFailed, timedOut, journalNotWritten, invalidScenario
            case alreadyRunning, notRunning, noBody, invalidRequest, listenFailed, invalidConfiguration
        }
        fileprivate let base: Base

        /// A port outside 0...65535, in the `port:` argument or `ROBOTCI_MOCK_PORT`.
        public static let invalidPort = Code(base: .invalidPort)
        /// Another process already listens on the port.
        public static let portInUse = Code(base: .portInUse)
        /// Binding the loopback address failed for another reason.
        public static let bindFailed = Code(base: .bindFailed)
        /// `waitForRequest` saw no matching request in time.
        public static let timedOut = Code(base: .timedOut)
        /// `stop()` could not write `mock-requests.json`.
        public static let journalNotWritten = Code(base: .journalNotWritten)
        /// A scenario file is malformed; `file`, `line` and `key` say where.
        public static let invalidScenario = Code(base: .invalidScenario)
        /// A ``MockServer/Configuration`` value that cannot work (an allowed origin that is
        /// not an origin, a zero idle timeout…); the message names it.
        public static let invalidConfiguration = Code(base: .invalidConfiguration)

        /// `start()` on a server that is already running.
        public static let alreadyRunning = Code(base: .alreadyRunning)
        /// An operation that needs a running server.
        public static let notRunning = Code(base: .notRunning)
        /// `jsonBody(_:)` on a request without a body.
        public static let noBody = Code(base: .noBody)
        /// A request or fixture that cannot be used (for example a missing image file).
        public static let invalidRequest = Code(base: .invalidRequest)
        /// Listening failed after the bind.
        public static let listenFailed = Code(base: .listenFailed)

        /// The code's name, for example `portInUse`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A lowercase sentence saying what went wrong and how to fix it.
    public let message: String
    /// The scenario file at fault, for `.invalidScenario`.
    public let file: String?
    /// The 1-based line in `file`, when known.
    public let line: Int?
    /// The YAML key at fault (`routes[1].status`), when known.
    public let key: String?

    init(_ code: Code, _ message: String, file: String? = nil, line: Int? = nil, key: String? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.key = key
    }

    /// `file:line: key: message` for scenario errors, the message alone otherwise.
    public var description: String {
        var location = ""
        if let file {
            location = line.map { "\(file):\($0): " } ?? "\(file): "
        }
        let keyPrefix = key.map { "\($0): " } ?? ""
        return location + keyPrefix + message
    }

    static func invalidPort(_ text: String, source: String) -> MockServerError {
        MockServerError(
            .invalidPort, "\(source) must be a port number between 0 and 65535 (0 picks a free port), got '\(text)'")
    }

    static func portInUse(_ port: Int, host: String) -> MockServerError {
        MockServerError(
            .portInUse,
            "port \(port) on \(host) is already in use; stop the process holding it, pass another port, or unset ROBOTCI_MOCK_PORT to get a free one"
        )
    }

    static func bindFailed(host: String, port: Int, reason: String) -> MockServerError {
        MockServerError(.bindFailed, "cannot listen on \(host):\(port): \(reason)")
    }

    static func timedOut(_ what: String, after timeout: Duration) -> MockServerError {
        MockServerError(
            .timedOut,
            "no request matching \(what) arrived within \(timeout); check the app calls this server's baseURL, or raise the timeout"
        )
    }

    static func journalNotWritten(path: String, reason: String) -> MockServerError {
        MockServerError(
            .journalNotWritten,
            "cannot write the request journal to \(path): \(reason); check that ROBOTCI_ARTIFACTS_DIR is a writable folder")
    }

    static func invalidScenario(_ message: String, file: String, line: Int?, key: String?) -> MockServerError {
        MockServerError(.invalidScenario, message, file: file, line: line, key: key)
    }

    static func invalidConfiguration(_ message: String) -> MockServerError {
        MockServerError(.invalidConfiguration, "MockServer.Configuration: \(message)")
    }
}

// MARK: - SwiftMockServer's spellings

/// SwiftMockServer's `MockServerError` is an enum; these members have its case names, so
/// `catch MockServerError.timeout`, `case .alreadyRunning:` and
/// `XCTAssertThrowsError(…) { … }` checks written for it compile and match here. A pattern
/// matches an error of the same ``MockServerError/Code`` whatever its message.
extension MockServerError {
    /// SwiftMockServer's `.timeout`: `waitForRequest` saw no matching request in time (code `.timedOut`).
    public static let timeout = MockServerError(
        .timedOut, "no matching request arrived in time; check the app calls this server's baseURL, or raise the timeout")
    /// SwiftMockServer's `.alreadyRunning`: `start()` on a running server.
    public static let alreadyRunning = MockServerError(
        .alreadyRunning, "the server is already running; call stop() before start(), or create another MockServer")
    /// SwiftMockServer's `.notRunning`.
    public static let notRunning = MockServerError(
        .notRunning, "the server is not running; call start() first (MockServer.create() starts it for you)")
    /// SwiftMockServer's `.noBody`: `jsonBody(_:)` on a request that has no body.
    public static let noBody = MockServerError(
        .noBody, "the request has no body; check the app sends one (and a Content-Length) for this route")

    /// SwiftMockServer's `.bindFailed(_:)`.
    public static func bindFailed(_ message: String) -> MockServerError {
        MockServerError(.bindFailed, "bind failed: \(message)")
    }

    /// SwiftMockServer's `.listenFailed(_:)`.
    public static func listenFailed(_ message: String) -> MockServerError {
        MockServerError(.listenFailed, "listen failed: \(message)")
    }

    /// SwiftMockServer's `.invalidRequest(_:)`.
    public static func invalidRequest(_ message: String) -> MockServerError {
        MockServerError(.invalidRequest, message)
    }

    /// SwiftMockServer's `.portUnavailable(_:)` (code `.portInUse`).
    public static func portUnavailable(_ port: UInt16) -> MockServerError {
        portInUse(Int(port), host: "127.0.0.1")
    }

    /// Matches by code, so `case .timeout:` and `catch MockServerError.timeout` match every
    /// timed-out wait, whatever its message says.
    public static func ~= (pattern: MockServerError, value: MockServerError) -> Bool {
        pattern.code == value.code
    }

    /// `catch MockServerError.timeout { … }`: matches a thrown ``MockServerError`` by code.
    public static func ~= (pattern: MockServerError, value: any Error) -> Bool {
        (value as? MockServerError).map { $0.code == pattern.code } ?? false
    }
}
