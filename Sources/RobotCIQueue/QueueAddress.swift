import Foundation
import RobotCICore

/// `redis://[USER:PASSWORD@]HOST:PORT/NAME`: where the shared queue lives, how to log in, and
/// which run it is. The password is never shown: `description` and every error mask it.
public struct QueueAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// The run's name; every machine of one run passes the same (e.g. the CI pipeline id).
    public var name: String
    /// Redis 6 ACL user (`AUTH USER PASSWORD`); nil logs in as `default` (`AUTH PASSWORD`).
    public var user: String?
    /// Sent with `AUTH` right after connecting; from the URL or `ROBOTCI_QUEUE_PASSWORD`.
    public var password: String?

    /// Where a password may come from instead of the command line (which `ps` shows to everyone).
    public static let passwordVariable = "ROBOTCI_QUEUE_PASSWORD"

    public init(host: String, port: Int, name: String, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.name = name
        self.user = user
        self.password = password
    }

    /// Parses `redis://[USER:PASSWORD@]HOST[:PORT]/NAME` (port 6379 by default; user and
    /// password percent-encoded). Without a password in the URL, `ROBOTCI_QUEUE_PASSWORD` from
    /// `environment` is used.
    public init(parsing text: String, environment: [String: String] = [:]) throws {
        let example = "e.g. redis://127.0.0.1:6379/pipeline-1234"
        let shown = URLCredentials.masked(text)
        if text.hasPrefix("rediss://") {
            throw QueueError("queue '\(shown)': rediss:// (Redis over TLS) is not supported by robotci's Redis client "
                + "(Debian's hiredis 0.14 has no TLS). Run a TLS sidecar such as stunnel on this machine "
                + "(client mode: accept 127.0.0.1:6380, connect to the server's TLS port) and pass "
                + "--queue redis://127.0.0.1:6380/NAME, the password in \(Self.passwordVariable); "
                + "see the README, 'Redis with a password or TLS'")
        }
        guard text.hasPrefix("redis://") else {
            throw QueueError("queue '\(shown)' is not a redis URL: write redis://HOST:PORT/NAME, \(example)")
        }
        let rest = text.dropFirst("redis://".count)
        guard let slash = rest.firstIndex(of: "/") else {
            throw QueueError("queue '\(shown)' has no NAME: write redis://HOST:PORT/NAME (NAME is the run, the same on every machine), \(example)")
        }
        var hostPort = rest[..<slash]
        let name = String(rest[rest.index(after: slash)...])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.:".contains($0) }), name.unicodeScalars.allSatisfy(\.isASCII) else {
            throw QueueError("queue '\(shown)': the NAME '\(name)' must be non-empty ASCII letters, digits, '-', '_', '.' or ':', \(example)")
        }
        var user: String?
        var password: String?
        if let at = hostPort.lastIndex(of: "@") {
            let info = hostPort[..<at]
            hostPort = hostPort[hostPort.index(after: at)...]
            let userPart = info.firstIndex(of: ":").map { info[..<$0] } ?? info
            guard let decodedUser = String(userPart).removingPercentEncoding,
                  let decodedPassword = info.firstIndex(of: ":").map({ String(info[info.index(after: $0)...]).removingPercentEncoding }) ?? .some(nil)
            else {
                throw QueueError("queue '\(shown)': the user or password has a bad %-escape; write a '%' as %25 (and '@' as %40, ':' in the user as %3A)")
            }
            user = decodedUser.isEmpty ? nil : decodedUser
            password = decodedPassword.flatMap { $0.isEmpty ? nil : $0 }
        }
        if password == nil, let fromEnvironment = environment[Self.passwordVariable], !fromEnvironment.isEmpty {
            password = fromEnvironment
        }
        if user != nil && password == nil {
            throw QueueError("queue '\(shown)' names the user '\(user ?? "")' but no password: write redis://USER:PASSWORD@HOST:PORT/NAME "
                + "or set \(Self.passwordVariable)")
        }
        var host = String(hostPort)
        var port = 6379
        if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            guard let p = Int(hostPort[hostPort.index(after: colon)...]), (1...65535).contains(p) else {
                throw QueueError("queue '\(shown)': the port must be a number from 1 to 65535, \(example)")
            }
            port = p
        }
        guard !host.isEmpty else { throw QueueError("queue '\(shown)' has no HOST, \(example)") }
        self.init(host: host, port: port, name: name, user: user, password: password)
    }

    /// `redis://[USER:***@]HOST:PORT/NAME`: the password is never printed.
    public var description: String {
        let login = password == nil ? "" : "\(user ?? ""):\(URLCredentials.mask)@"
        return "redis://\(login)\(host):\(port)/\(name)"
    }
}

/// A queue problem, with a message that says what to do; exit 2 when it stops a run.
public struct QueueError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
