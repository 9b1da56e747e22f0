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

    /// The user and password of a queue URL's login (`info`, before its `@`), percent-decoded;
    /// nil when empty. `shown` is the URL as errors name it (masked).
    private static func login(_ info: Substring, shown: String) throws -> (user: String?, password: String?) {
        let encodeHint = "percent-encode the user and password (# as %23, ? as %3F, / as %2F, @ as %40, : as %3A, % as %25; "
            + "e.g. python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=\"\"))' PASSWORD) "
            + "or leave the password out of the URL and set \(Self.passwordVariable)"
        // Other tools split the URL at these (redis-cli, client libraries, robotci's own masking
        // of URLs in text): the password would be cut, and shown. Refuse rather than guess.
        guard !info.contains(where: { "/?#".contains($0) }) else {
            throw QueueError("queue '\(shown)': the user or password holds a '/', '?' or '#' as it is, which ends a URL's "
                + "address: \(encodeHint)")
        }
        let colon = info.firstIndex(of: ":")
        let userPart = colon.map { info[..<$0] } ?? info
        let passwordPart = colon.map { info[info.index(after: $0)...] }
        // Both must decode: a password whose `%` starts no escape is not quietly dropped.
        guard let decodedUser = String(userPart).removingPercentEncoding,
              passwordPart.map({ String($0).removingPercentEncoding != nil }) ?? true
        else {
            throw QueueError("queue '\(shown)': the user or password has a '%' that starts no %-escape (two hex digits): "
                + encodeHint)
        }
        return (decodedUser.isEmpty ? nil : decodedUser,
                passwordPart.flatMap { String($0).removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Parses `redis://[USER:PASSWORD@]HOST[:PORT]/NAME` (port 6379 by default; user and
    /// password percent-encoded). Without a password in the URL, `ROBOTCI_QUEUE_PASSWORD` from
    /// `environment` is used.
    public init(parsing text: String, environment: [String: String] = [:]) throws {
        let example = "e.g. redis://127.0.0.1:6379/pipeline-1234"
        let shown = Self.masked(text)
        if text.hasPrefix("rediss://") {
            throw QueueError("queue '\(shown)': rediss:// (Redis over TLS) is not supported by robotci's Redis client "
                + "(Debian's hiredis 0.14 has no TLS). Run a TLS sidecar such as stunnel on this machine "
                + "(client mode: accept 127.0.0.1:6380, connect to the server's TLS port) and pass "
                + "--queue redis://127.0.0.1:6380/NAME, the password in \(Self.passwordVariable); "
                + "see robotci's docs/queue.md, 'Redis with a password or TLS'")
        }
        guard text.hasPrefix("redis://") else {
            throw QueueError("queue '\(shown)' is not a redis URL: write redis://HOST:PORT/NAME, \(example)")
        }
        var rest = text.dropFirst("redis://".count)
        var user: String?
        var password: String?
        // HOST, PORT and NAME hold no `@`: the last one ends the login, whatever the password holds.
        if let at = rest.lastIndex(of: "@") {
            let info = rest[..<at]
            rest = rest[rest.index(after: at)...]
            (user, password) = try Self.login(info, shown: shown)
        }
        guard let slash = rest.firstIndex(of: "/") else {
            throw QueueError("queue '\(shown)' has no NAME: write redis://HOST:PORT/NAME (NAME is the run, the same on every machine), \(example)")
        }
        let hostPort = rest[..<slash]
        let name = String(rest[rest.index(after: slash)...])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.:".contains($0) }), name.unicodeScalars.allSatisfy(\.isASCII) else {
            throw QueueError("queue '\(shown)': the NAME '\(name)' must be non-empty ASCII letters, digits, '-', '_', '.' or ':', \(example)")
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

    /// Checks the URL's form, as a config value: the password of a `USER@` login may still come
    /// from `ROBOTCI_QUEUE_PASSWORD`, which the run reads (and checks) when it connects.
    public static func validate(_ text: String) throws {
        _ = try QueueAddress(parsing: text, environment: [passwordVariable: "set-when-connecting"])
    }

    /// `text` with its password masked, for messages. Unlike `URLCredentials.masked` (which
    /// reads URLs inside any text and so stops at `/`, `?` or `#`), everything after the user's
    /// `:` up to the last `@` is the password here: one pasted unencoded is masked whole.
    static func masked(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else {
            return URLCredentials.masked(text)
        }
        let login = text[scheme.upperBound..<at]
        guard let colon = login.firstIndex(of: ":") else { return text }
        return String(text[..<scheme.upperBound] + login[..<colon]) + ":" + URLCredentials.mask + String(text[at...])
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

/// `--queue`'s value. Its form is checked by `check()`, not when it is made: a flag's reading
/// must not fail on text that may hold a password, since the argument parser's usage error
/// prints the text as given. The password, when the URL has none, comes from
/// `ROBOTCI_QUEUE_PASSWORD` when the run connects.
public struct QueueURL: Sendable, Equatable, CustomStringConvertible {
    /// As given.
    public let text: String

    public init(_ text: String) { self.text = text }

    /// Throws `QueueError` (the password masked) when the text is no queue URL.
    public func check() throws { try QueueAddress.validate(text) }

    /// The URL with its password masked.
    public var description: String { QueueAddress.masked(text) }
}
