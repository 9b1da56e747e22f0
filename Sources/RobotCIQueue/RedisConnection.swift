import CHiredis
import Foundation
import RobotCICore

/// One Redis reply, copied out of hiredis's `redisReply` (which is freed right after).
public enum RedisReply: Equatable, Sendable {
    case string([UInt8])
    case status(String)
    case integer(Int64)
    case array([RedisReply])
    case null
    case error(String)

    /// The reply as UTF-8 text (bulk string or status), nil otherwise.
    public var text: String? {
        switch self {
        case .string(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .status(let s): return s
        default: return nil
        }
    }

    public var integer: Int64? {
        if case .integer(let n) = self { return n }
        return nil
    }

    public var array: [RedisReply]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

/// Why talking to Redis failed.
public struct RedisError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// Connecting failed or the connection broke (worth a reconnect and retry).
        case connection
        /// Redis answered with an error reply (`ERR …`, a script error): retrying does not help.
        case reply
        /// Redis refused the login or wants one (`WRONGPASS`, `NOAUTH`): retrying does not help.
        case auth
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// One connection to Redis through hiredis, owned by exactly one object: connected in
/// `init`, freed in `deinit`. Not `Sendable`: use one per thread, or guard it with a lock.
public final class RedisConnection {
    private var context: UnsafeMutablePointer<redisContext>?
    public let host: String
    public let port: Int

    /// Connects to the queue's server and logs in with its credentials, if any.
    public convenience init(address: QueueAddress, timeout: Double = 5) throws {
        try self.init(host: address.host, port: address.port, timeout: timeout, user: address.user, password: address.password)
    }

    /// Connects, failing after `timeout` seconds; every later command also times out after
    /// `timeout`. With `password`, sends `AUTH [user] password` first; without, checks with
    /// `PING` that the server wants no password, so that mistake is named here and not as
    /// the first queue command's `NOAUTH`. The password is in no error message.
    public init(host: String, port: Int, timeout: Double = 5, user: String? = nil, password: String? = nil) throws {
        self.host = host
        self.port = port
        let tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        guard let c = redisConnectWithTimeout(host, Int32(port), tv) else {
            throw RedisError(.connection, "cannot connect to redis at \(host):\(port): out of memory")
        }
        if c.pointee.err != 0 {
            let reason = Self.errorString(c)
            redisFree(c)
            throw RedisError(.connection, "cannot connect to redis at \(host):\(port): \(reason)")
        }
        redisSetTimeout(c, tv)
        context = c
        try logIn(user: user, password: password)
    }

    private func logIn(user: String?, password: String?) throws {
        let passwordHint = "pass it in \(QueueAddress.passwordVariable) (or as redis://:PASSWORD@HOST:PORT/NAME)"
        guard let password else {
            let reply = try command(["PING"])
            if case .error(let text) = reply, text.hasPrefix("NOAUTH") {
                throw RedisError(.auth, "redis at \(host):\(port) requires a password: \(passwordHint)")
            }
            return
        }
        let reply = try command(["AUTH"] + (user.map { [$0] } ?? []) + [password])
        guard case .error(let text) = reply else { return }
        // Redis's own words (`WRONGPASS invalid username-password pair…`) never echo the password.
        let said = URLCredentials.masked(text).replacingOccurrences(of: password, with: URLCredentials.mask)
        if said.contains("without any password configured") || said.contains("no password is set") {
            throw RedisError(.auth, "redis at \(host):\(port) has no password set but one was given (\(said)): "
                + "drop it from --queue and \(QueueAddress.passwordVariable), or set requirepass on the server")
        }
        let who = user.map { "user '\($0)' and password" } ?? "password"
        throw RedisError(.auth, "redis at \(host):\(port) refused the \(who) (\(said)): check them; \(passwordHint)")
    }

    deinit {
        if let context { redisFree(context) }
    }

    private static func errorString(_ c: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: c.pointee.errstr) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[0..<end], as: UTF8.self)
        }
    }

    /// Sends one command, each argument binary-safe (`redisCommandArgv`), and returns the
    /// reply. An error reply is returned as `.error`, not thrown; a broken connection throws.
    @discardableResult
    public func command(_ arguments: [String]) throws -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    @discardableResult
    public func command(_ arguments: [[UInt8]]) throws -> RedisReply {
        guard let context else { throw RedisError(.connection, "redis connection to \(host):\(port) is closed") }
        // Copy each argument into its own buffer that lives until the call returns.
        let buffers: [UnsafeMutablePointer<CChar>] = arguments.map { arg in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, arg.count))
            arg.withUnsafeBufferPointer { src in
                src.withMemoryRebound(to: CChar.self) { if let base = $0.baseAddress { p.initialize(from: base, count: arg.count) } }
            }
            return p
        }
        defer { buffers.forEach { $0.deallocate() } }
        var argv: [UnsafePointer<CChar>?] = buffers.map { UnsafePointer($0) }
        var lengths: [Int] = arguments.map(\.count)
        let raw = redisCommandArgv(context, Int32(arguments.count), &argv, &lengths)
        guard let raw else {
            let reason = context.pointee.err != 0 ? Self.errorString(context) : "no reply"
            // hiredis cannot use a context after an I/O error: drop it.
            redisFree(context)
            self.context = nil
            throw RedisError(.connection, "redis at \(host):\(port): \(reason)")
        }
        let reply = raw.assumingMemoryBound(to: redisReply.self)
        defer { freeReplyObject(raw) }
        return Self.convert(reply)
    }

    private static func convert(_ r: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let reply = r.pointee
        func bytes() -> [UInt8] {
            guard let str = reply.str else { return [] }
            return str.withMemoryRebound(to: UInt8.self, capacity: reply.len) { Array(UnsafeBufferPointer(start: $0, count: reply.len)) }
        }
        switch reply.type {
        case REDIS_REPLY_STRING: return .string(bytes())
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: return .integer(reply.integer)
        case REDIS_REPLY_ARRAY:
            var items: [RedisReply] = []
            items.reserveCapacity(reply.elements)
            for i in 0..<reply.elements {
                if let e = reply.element[i] { items.append(convert(e)) } else { items.append(.null) }
            }
            return .array(items)
        default: return .null
        }
    }
}
