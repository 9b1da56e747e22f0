import ArgumentParser
import Dispatch
import Foundation
import MockServer

/// `robotci mock --scenario FILE [--port P]`: serves a scenario by hand, until Ctrl-C.
struct Mock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Serve a YAML mock scenario on loopback until interrupted, printing each request."
    )

    @Option(help: "The scenario file (YAML) to serve.")
    var scenario: String

    @Option(help: "The port to listen on (default: ROBOTCI_MOCK_PORT, else a free port).")
    var port: Int?

    func validate() throws {
        if let port, !(0...65535).contains(port) {
            throw ValidationError("--port must be between 0 and 65535 (0 picks a free port), got \(port).")
        }
    }

    func run() async throws {
        let server: MockServer
        do {
            let loaded = try ScenarioLoader.load(contentsOf: URL(fileURLWithPath: scenario))
            server = try await MockServer.create(
                port: port,
                configuration: .init(maxRecordedRequests: 10_000, onResponse: { Self.say(Self.line(for: $0)) })
            )
            await server.load(loaded)
        } catch let error as MockServerError {
            FileHandle.standardError.write(Data("robotci mock: \(error)\n".utf8))
            throw ExitCode(2)
        }
        Self.say("robotci mock: serving \(scenario) on \(await server.baseURL) (Ctrl-C to stop)")
        await Self.waitForTerminationSignal()
        try await server.stop()
    }

    /// Writes one line straight to stdout, unbuffered, so `| tee` or a test sees it at once.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// `GET /character?page=2 -> 200 (GET /character, 3 ms)`
    private static func line(for entry: RecordedRequest) -> String {
        let status = entry.status.map { String($0.code) } ?? "-"
        let route = entry.matchedRoute ?? "no route, default"
        let milliseconds = Int(Date().timeIntervalSince(entry.timestamp) * 1000)
        let error = entry.error.map { ": \($0)" } ?? ""
        return "\(entry.request.requestLine) -> \(status) (\(route), \(milliseconds) ms)\(error)"
    }

    /// Returns on SIGINT or SIGTERM, which stop the server cleanly instead of killing the process.
    private static func waitForTerminationSignal() async {
        let (signals, continuation) = AsyncStream<Int32>.makeStream()
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        for await _ in signals { break }
        sources.forEach { $0.cancel() }
    }
}
