/// Everything MockServer can fail with; the message says what to do about it.
///
/// A struct over a private enum (as in Hummingbird), so new kinds of failure can be
/// added without breaking anyone's `switch`.
public struct MockServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; compare with the static members (`.portInUse`, …).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String {
            case invalidPort, portInUse, bindFailed, timedOut, journalNotWritten, invalidScenario
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
}
