import Foundation
import LoopbackSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking Chrome DevTools Protocol connection to the *browser* target of a local Chromium
/// (`ws://127.0.0.1:PORT/devtools/browser/…`), for the commands WebDriver has no word for:
/// browser contexts and targets (`Target.createBrowserContext`, `Target.createTarget`,
/// `Target.disposeBrowserContext`; chromedriver's `goog/cdp/execute` runs on the page target,
/// where Chromium answers "Not allowed" to those), and `PageReset`'s clearing, on a page's
/// flat session.
///
/// A minimal RFC 6455 client over a loopback TCP socket: masked text frames out, unmasked
/// frames in (fragments joined, pings answered); one command in flight at a time, or a set
/// sent together (`callAll`). Events are skipped unless `call`'s `onEvent` asks for them.
/// No `Origin` header, so Chromium's `--remote-allow-origins` check does not apply. Not
/// `Sendable`: one owner at a time.
final class DevToolsSocket {
    private var fd: Int32
    private var nextID = 0
    private var pending: [UInt8] = []

    /// Connects to `url` (`ws://127.0.0.1:PORT/path`) and completes the WebSocket handshake.
    init(url: String, timeout: TimeInterval = 5) throws(RobotKitError) {
        guard let parsed = URL(string: url), parsed.scheme == "ws", let host = parsed.host, let port = parsed.port else {
            throw .transport("devtools: not a ws:// URL: \(url)")
        }
        let address = host == "localhost" ? "127.0.0.1" : host
        guard let connected = Loopback.connect(port: port, host: address) else {
            throw .transport("devtools: cannot connect to \(address):\(port): \(String(cString: strerror(errno)))")
        }
        fd = connected
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let path = parsed.path.isEmpty ? "/" : parsed.path
        let request = "GET \(path) HTTP/1.1\r\nHost: \(address):\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let deadline = Date().addingTimeInterval(timeout)
        do throws(RobotKitError) {
            try write(Array(request.utf8), deadline: deadline)
            var head: [UInt8] = []
            let end: [UInt8] = [13, 10, 13, 10]
            while !(head.count >= 4 && Array(head.suffix(4)) == end) {
                head.append(try readByte(deadline: deadline))
                if head.count > 16_384 { throw RobotKitError.transport("devtools: handshake answer too long") }
            }
            let statusLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
            guard statusLine.split(separator: " ").dropFirst().first == "101" else {
                throw RobotKitError.transport("devtools: handshake refused: \(statusLine)")
            }
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Sends `method` with `params` and returns the command's `result`, or throws its `error`.
    /// `session`: a target's flat session (`Target.attachToTarget` with `flatten`), for a
    /// page's own domains (`Page`, `Storage`, `Network`); nil for the browser target.
    /// `onEvent` sees the events that arrive meanwhile (method, params), and may `sendOnly`.
    @discardableResult
    func call(
        _ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: TimeInterval = 10,
        onEvent: ((String, [String: Any]) throws(RobotKitError) -> Void)? = nil
    ) throws(RobotKitError) -> [String: Any] {
        try callAll([Command(method: method, params: params, session: session)], timeout: timeout, onEvent: onEvent)[0].get()
    }

    /// Reads until an event that `until` accepts arrives (events it does not accept, and
    /// answers to commands no one waits for, are passed over); throws when none comes by
    /// `timeout`.
    func awaitEvent(timeout: TimeInterval = 10, until: (String, [String: Any]) throws(RobotKitError) -> Bool) throws(RobotKitError) {
        let started = CommandTrace.start()
        defer { CommandTrace.end(started, "devtools (awaiting an event)") }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let object = try readObject(deadline: deadline, method: "awaiting an event"), object["id"] == nil,
                let event = object["method"] as? String
            else { continue }
            if try until(event, object["params"] as? [String: Any] ?? [:]) { return }
        }
    }

    /// One command of `callAll`.
    struct Command {
        var method: String
        var params: [String: Any] = [:]
        /// A target's flat session; nil for the browser target.
        var session: String?
    }

    /// Sends every command at once, then waits for all their answers: the browser works on
    /// them together (storage, cookies and the cache are cleared on threads of their own)
    /// instead of one round trip after another. Each command's `result` or error, in the
    /// order sent; throws only when the connection fails or the answers are late. `onEvent`
    /// sees the events that arrive meanwhile, as with `call`.
    func callAll(_ commands: [Command], timeout: TimeInterval = 10,
                 onEvent: ((String, [String: Any]) throws(RobotKitError) -> Void)? = nil) throws(RobotKitError)
        -> [Result<[String: Any], RobotKitError>]
    {
        let started = CommandTrace.start()
        defer { CommandTrace.end(started, "devtools \(commands.map(\.method).joined(separator: " + "))") }
        let deadline = Date().addingTimeInterval(timeout)
        var waiting: [Int: Int] = [:]  // command id -> index in `commands`
        for (index, command) in commands.enumerated() {
            waiting[try sendOnly(command.method, command.params, session: command.session, deadline: deadline)] = index
        }
        var answers = [Result<[String: Any], RobotKitError>](repeating: .success([:]), count: commands.count)
        while !waiting.isEmpty {
            guard let object = try readObject(deadline: deadline, method: commands[waiting.values.min() ?? 0].method) else { continue }
            if let onEvent, object["id"] == nil, let event = object["method"] as? String {
                try onEvent(event, object["params"] as? [String: Any] ?? [:])
                continue
            }
            // Another command's answer (one sent from `onEvent`, or abandoned at a timeout) is skipped.
            guard let id = (object["id"] as? NSNumber)?.intValue, let index = waiting.removeValue(forKey: id) else { continue }
            answers[index] = Self.answer(object, to: commands[index].method)
        }
        return answers
    }

    /// The next message as a JSON object; nil when it is not one. A late or closed
    /// connection throws (only the JSON's own failure is nil).
    private func readObject(deadline: Date, method: String) throws(RobotKitError) -> [String: Any]? {
        let message = try readMessage(deadline: deadline, method: method)
        return (try? JSONSerialization.jsonObject(with: Data(message))) as? [String: Any]
    }

    /// A command's answer: its `result`, or its `error` as a `devtools error`.
    private static func answer(_ object: [String: Any], to method: String) -> Result<[String: Any], RobotKitError> {
        if let error = object["error"] as? [String: Any] {
            return .failure(.webDriver(code: "devtools error", "devtools \(method): \(error["message"] as? String ?? "\(error)")"))
        }
        return .success(object["result"] as? [String: Any] ?? [:])
    }

    /// Sends a command without waiting for its answer (which `call` later skips); its id.
    @discardableResult
    func sendOnly(_ method: String, _ params: [String: Any] = [:], session: String? = nil, deadline: Date) throws(RobotKitError) -> Int {
        nextID += 1
        let body: Data
        do {
            var message: [String: Any] = ["id": nextID, "method": method, "params": params]
            if let session { message["sessionId"] = session }
            body = try JSONSerialization.data(withJSONObject: message)
        } catch {
            throw .transport("devtools \(method): could not encode: \(error)")
        }
        try write(Self.frame(opcode: 1, payload: Array(body)), deadline: deadline)
        return nextID
    }

    // MARK: - Frames

    /// A client frame: FIN, `opcode`, masked `payload` (clients must mask, RFC 6455 5.3).
    static func frame(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        let count = payload.count
        if count < 126 {
            bytes.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            bytes.append(0x80 | 126)
            bytes += [UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            bytes += (0..<8).reversed().map { UInt8((UInt64(count) >> (UInt64($0) * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        bytes += mask
        bytes.reserveCapacity(bytes.count + count)
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }

    /// The next complete text/binary message, answering pings on the way.
    private func readMessage(deadline: Date, method: String) throws(RobotKitError) -> [UInt8] {
        var message: [UInt8] = []
        while true {
            let first = try readByte(deadline: deadline)
            let second = try readByte(deadline: deadline)
            let opcode = first & 0x0F
            var length = UInt64(second & 0x7F)
            if length == 126 {
                length = try read(2, deadline: deadline).reduce(0) { $0 << 8 | UInt64($1) }
            } else if length == 127 {
                length = try read(8, deadline: deadline).reduce(0) { $0 << 8 | UInt64($1) }
            }
            guard length < 256 << 20 else { throw .transport("devtools \(method): a \(length)-byte frame") }
            let mask = second & 0x80 != 0 ? try read(4, deadline: deadline) : nil
            var payload = try read(Int(length), deadline: deadline)
            if let mask { for index in payload.indices { payload[index] ^= mask[index & 3] } }
            switch opcode {
            case 0x8:
                throw .transport("devtools \(method): the browser closed the connection")
            case 0x9:
                try write(Self.frame(opcode: 0xA, payload: payload), deadline: deadline)
            case 0xA:
                continue
            default:
                message += payload
                if first & 0x80 != 0 { return message }
            }
        }
    }

    private func read(_ count: Int, deadline: Date) throws(RobotKitError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            if pending.isEmpty { try fill(deadline: deadline) }
            let take = min(count - bytes.count, pending.count)
            bytes += pending.prefix(take)
            pending.removeFirst(take)
        }
        return bytes
    }

    private func readByte(deadline: Date) throws(RobotKitError) -> UInt8 {
        if pending.isEmpty { try fill(deadline: deadline) }
        return pending.removeFirst()
    }

    private func fill(deadline: Date) throws(RobotKitError) {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw .transport("devtools: no answer from the browser in time") }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining, 60) * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { throw .transport("devtools: the browser closed the connection") }
            pending += buffer[0..<n]
            return
        }
    }

    private func write(_ bytes: [UInt8], deadline: Date) throws(RobotKitError) {
        var offset = 0
        while offset < bytes.count {
            #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let n = bytes[offset...].withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count, flags) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .transport("devtools: send failed: \(String(cString: strerror(errno)))")
            }
            offset += n
            if Date() > deadline { throw .transport("devtools: send timed out") }
        }
    }
}
