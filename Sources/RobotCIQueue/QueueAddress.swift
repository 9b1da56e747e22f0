/// `redis://HOST:PORT/NAME`: where the shared queue lives and which run it is.
public struct QueueAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// The run's name; every machine of one run passes the same (e.g. the CI pipeline id).
    public var name: String

    public init(host: String, port: Int, name: String) {
        self.host = host
        self.port = port
        self.name = name
    }

    /// Parses `redis://HOST[:PORT]/NAME` (port 6379 by default).
    public init(parsing text: String) throws {
        let example = "e.g. redis://127.0.0.1:6379/pipeline-1234"
        guard text.hasPrefix("redis://") else {
            throw QueueError("queue '\(text)' is not a redis URL: write redis://HOST:PORT/NAME, \(example)")
        }
        let rest = text.dropFirst("redis://".count)
        guard let slash = rest.firstIndex(of: "/") else {
            throw QueueError("queue '\(text)' has no NAME: write redis://HOST:PORT/NAME (NAME is the run, the same on every machine), \(example)")
        }
        let hostPort = rest[..<slash]
        let name = String(rest[rest.index(after: slash)...])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.:".contains($0) }), name.unicodeScalars.allSatisfy(\.isASCII) else {
            throw QueueError("queue '\(text)': the NAME '\(name)' must be non-empty ASCII letters, digits, '-', '_', '.' or ':', \(example)")
        }
        var host = String(hostPort)
        var port = 6379
        if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            guard let p = Int(hostPort[hostPort.index(after: colon)...]), (1...65535).contains(p) else {
                throw QueueError("queue '\(text)': the port must be a number from 1 to 65535, \(example)")
            }
            port = p
        }
        guard !host.isEmpty else { throw QueueError("queue '\(text)' has no HOST, \(example)") }
        self.init(host: host, port: port, name: name)
    }

    public var description: String { "redis://\(host):\(port)/\(name)" }
}

/// A queue problem, with a message that says what to do; exit 2 when it stops a run.
public struct QueueError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
