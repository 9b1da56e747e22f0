import BrowserTools
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking DevTools protocol client over one byte stream: Chromium's own pipe (a browser
/// this process started) or robotci's relay socket (the shard's browser). Messages are JSON,
/// each ended by a NUL (`DevToolsFrames`). It owns its transport and nothing else: pages,
/// contexts and resets sit above it.
///
/// Commands carry ids from a random base, so an answer meant for an earlier test process on
/// the same relayed browser (a command in flight when it died) is never mistaken for one of
/// ours. Events go to the handler registered for their session (`onEvent(session:)`); a
/// handler may interrupt the command that waits on that session (a dialog opened under it).
/// Not `Sendable`: one owner at a time (`ChromiumBrowser`, under its lock).
final class DevToolsConnection {
    private let fd: Int32
    private let owned: Bool
    private var frames = DevToolsFrames()
    /// One read's landing place, kept: allocating and zeroing it per read was per round trip.
    private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var nextID = Int.random(in: 1...(1 << 30))
    /// Set once the stream failed: every later command fails at once.
    private(set) var broken: String?
    /// Per flat session: what its events do. A non-nil answer interrupts the session's waiting command.
    private var handlers: [String: (String, [String: Any]) -> RobotKitError?] = [:]

    /// A connection on a stream socket (the browser's channel, or the relay's); closed with it when `owned`.
    init(socket fd: Int32, owned: Bool) {
        self.fd = fd
        self.owned = owned
    }

    deinit { if owned { close(fd) } }

    /// One command of `callAll`.
    struct Command {
        var method: String
        var params: [String: Any] = [:]
        /// A target's flat session; nil for the browser target.
        var session: String?
    }

    /// Makes `handler` see the events of `session` (nil removes it).
    func onEvent(session: String, _ handler: ((String, [String: Any]) -> RobotKitError?)?) {
        handlers[session] = handler
    }

    /// Sends `method` and returns its `result`, or throws its `error`. `onEvent` also sees the
    /// events that arrive meanwhile.
    @discardableResult
    func call(
        _ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: TimeInterval = 10,
        onEvent: ((String, [String: Any]) throws(RobotKitError) -> Void)? = nil
    ) throws(RobotKitError) -> [String: Any] {
        try callAll([Command(method: method, params: params, session: session)], timeout: timeout, onEvent: onEvent)[0].get()
    }

    /// Sends every command at once, then waits for all their answers: the browser works on
    /// them together instead of one round trip after another. Each command's `result` or
    /// error, in order; throws when the stream fails, the answers are late, or a session's
    /// handler interrupts (a dialog opened).
    func callAll(
        _ commands: [Command], timeout: TimeInterval = 10,
        onEvent: ((String, [String: Any]) throws(RobotKitError) -> Void)? = nil
    ) throws(RobotKitError) -> [Result<[String: Any], RobotKitError>] {
        let started = CommandTrace.start()
        defer { CommandTrace.end(started, "devtools \(commands.map(\.method).joined(separator: " + "))") }
        let deadline = Self.deadline(after: timeout)
        var waiting: [Int: Int] = [:]
        for (index, command) in commands.enumerated() {
            waiting[try sendOnly(command.method, command.params, session: command.session)] = index
        }
        let sessions = Set(commands.compactMap(\.session))
        var answers = [Result<[String: Any], RobotKitError>](repeating: .success([:]), count: commands.count)
        while !waiting.isEmpty {
            let method = commands[waiting.values.min() ?? 0].method
            let message = try next(deadline: deadline, method: method)
            if let id = (message["id"] as? NSNumber)?.intValue {
                guard let index = waiting.removeValue(forKey: id) else { continue }  // an abandoned command's
                answers[index] = Self.answer(message, to: commands[index].method)
                continue
            }
            guard let event = message["method"] as? String else { continue }
            let params = message["params"] as? [String: Any] ?? [:]
            try onEvent?(event, params)
            if let interruption = dispatch(event, params, session: message["sessionId"] as? String),
                let session = message["sessionId"] as? String, sessions.contains(session)
            {
                throw interruption
            }
        }
        return answers
    }

    /// Reads until an event `until` accepts arrives; throws when none comes by `timeout`.
    func awaitEvent(timeout: TimeInterval = 10, until: (String, [String: Any]) throws(RobotKitError) -> Bool)
        throws(RobotKitError)
    {
        let deadline = Self.deadline(after: timeout)
        while true {
            let message = try next(deadline: deadline, method: "awaiting an event")
            guard message["id"] == nil, let event = message["method"] as? String else { continue }
            let params = message["params"] as? [String: Any] ?? [:]
            _ = dispatch(event, params, session: message["sessionId"] as? String)
            if try until(event, params) { return }
        }
    }

    /// Hands every event that has already arrived to its session's handler, without waiting.
    func pump() {
        while broken == nil, let message = try? next(deadline: Date(), method: "reading events", waits: false) {
            if message["id"] == nil, let event = message["method"] as? String {
                _ = dispatch(event, message["params"] as? [String: Any] ?? [:], session: message["sessionId"] as? String)
            }
        }
    }

    /// Sends a command without waiting for its answer (which a later read skips); its id.
    @discardableResult
    func sendOnly(_ method: String, _ params: [String: Any] = [:], session: String? = nil) throws(RobotKitError) -> Int {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        guard let body = try? JSONSerialization.data(withJSONObject: message) else {
            throw .webDriver(code: "invalid argument", "devtools \(method): the parameters cannot be written as JSON")
        }
        try write(Array(body) + [0], method: method)
        return nextID
    }

    /// Writes raw bytes (a relay hello) and reads the next whole message as bytes.
    func exchange(_ bytes: [UInt8], timeout: TimeInterval) throws(RobotKitError) -> [UInt8] {
        try write(bytes, method: "hello")
        let deadline = Self.deadline(after: timeout)
        while true {
            if let message = try readFrame(deadline: deadline, method: "hello", waits: true) { return message }
        }
    }

    /// `timeout` from now; a wait without a bound (`.infinity`, as XCUITest allows) waits a day.
    private static func deadline(after timeout: TimeInterval) -> Date {
        Date().addingTimeInterval(timeout.isFinite ? max(timeout, 0) : 86_400)
    }

    private func dispatch(_ event: String, _ params: [String: Any], session: String?) -> RobotKitError? {
        guard let session, let handler = handlers[session] else { return nil }
        return handler(event, params)
    }

    /// A command's answer: its `result`, or its `error` (`DevToolsError.classify`).
    private static func answer(_ object: [String: Any], to method: String) -> Result<[String: Any], RobotKitError> {
        if let error = object["error"] as? [String: Any] {
            return .failure(DevToolsError.classify(method: method, message: error["message"] as? String ?? "\(error)"))
        }
        return .success(object["result"] as? [String: Any] ?? [:])
    }

    /// The next message, as a JSON object; non-objects are skipped.
    private func next(deadline: Date, method: String, waits: Bool = true) throws(RobotKitError) -> [String: Any] {
        while true {
            guard let frame = try readFrame(deadline: deadline, method: method, waits: waits) else {
                throw .transport("devtools \(method): nothing to read")
            }
            if let object = (try? JSONSerialization.jsonObject(with: Data(frame))) as? [String: Any] {
                return object
            }
        }
    }

    private var pendingFrames: [[UInt8]] = []

    /// The next whole frame; nil when `waits` is false and none is complete yet.
    private func readFrame(deadline: Date, method: String, waits: Bool) throws(RobotKitError) -> [UInt8]? {
        if let broken { throw .transport("devtools \(method): \(broken)") }
        while pendingFrames.isEmpty {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = waits ? max(deadline.timeIntervalSinceNow, 0) : 0
            if waits && remaining <= 0 { throw .transport("devtools \(method): no answer from the browser in time") }
            let ready = poll(&pfd, 1, waits ? Int32(min(remaining, 60) * 1000) + 1 : 0)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                if waits { continue }
                return nil
            }
            let count = readBuffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { throw fail(Self.gone + " (its channel closed)", method) }
            do {
                pendingFrames += try frames.append(readBuffer[0..<count])
            } catch {
                throw fail("\(error)", method)
            }
        }
        return pendingFrames.removeFirst()
    }

    private func write(_ bytes: [UInt8], method: String) throws(RobotKitError) {
        if let broken { throw .transport("devtools \(method): \(broken)") }
        var offset = 0
        while offset < bytes.count {
            #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let written = bytes[offset...].withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count, flags) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                throw fail(errno == EPIPE || errno == ECONNRESET ? Self.gone + " (\(reason))" : "send failed: \(reason)", method)
            }
            offset += written
        }
    }

    /// What a closed channel means, in words a test's failure can show.
    static let gone = "the browser went away: it exited, crashed or was killed, and the next launch() starts another"

    private func fail(_ reason: String, _ method: String) -> RobotKitError {
        broken = reason
        return .transport("devtools \(method): \(reason)")
    }
}

/// What a DevTools error means to RobotKit, in the codes the engine's retry rules know
/// (the WebDriver codes both engines share).
enum DevToolsError {
    static func classify(method: String, message: String) -> RobotKitError {
        let lowered = message.lowercased()
        let code: String
        if lowered.contains("execution context") || lowered.contains("cannot find context")
            || lowered.contains("navigated or closed") || lowered.contains("not attached to an active page")
        {
            code = "no such execution context"
        } else if lowered.contains("session with given id not found") || lowered.contains("no target with given id") {
            code = "no such window"
        } else {
            code = "devtools error"
        }
        return .webDriver(code: code, "devtools \(method): \(message)")
    }
}
