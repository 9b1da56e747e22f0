import Foundation

/// Runs blocking socket code on its own thread, so the cooperative pool (two threads on a
/// two-core machine) stays free for the server's route handlers.
enum Offload {
    static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try body() })
            }
            thread.start()
        }
    }
}

/// One request on a fresh connection, the way most tests talk to the server.
func fetch(
    _ port: UInt16, _ method: String = "GET", _ target: String, headers: [String: String] = [:], body: String = ""
) async throws -> RawResponse {
    try await Offload.run {
        let socket = try RawSocket(port: port)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.utf8.count)\r\n" }
        try socket.send(head + "\r\n" + body)
        return try socket.readResponse(headOnly: method == "HEAD")
    }
}
