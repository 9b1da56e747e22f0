import ArgumentParser
import Dispatch
import Foundation
import MockServer

/// `robotci mock --scenario FILE [--port P] [--allow-origin O…] [--allow-host H…]`: serves a scenario by hand, until Ctrl-C.
struct Mock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Serve a YAML mock scenario on loopback until interrupted, printing each request.",
        discussion: "Exit codes: 0 stopped by SIGINT or SIGTERM, 2 bad scenario file, origin or port already in use."
    )

    @Option(help: "The scenario file (YAML) to serve.")
    var scenario: String

    @Option(help: "The port to listen on (default: ROBOTCI_MOCK_PORT, else a free port).")
    var port: Int?

    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp(
            "Another origin whose pages may read the responses, besides loopback ones (repeatable).",
            discussion: "scheme://host[:port], scheme://host:* for any port, null for pages opened from disk, * for all."))
    var allowOrigins: [String] = []

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp(
            "Another Host name to answer, besides 127.0.0.1, localhost and [::1] (repeatable).",
            discussion: "A name alone (app.test), or * for every name. Other hosts get 421 (DNS rebinding)."))
    var allowHosts: [String] = []

    func validate() throws {
        if let port, !(0...65535).contains(port) {
            throw ValidationError("--port must be between 0 and 65535 (0 picks a free port), got \(port).")
        }
    }

    func run() async throws {
        try await ExitStatus.run("robotci mock") { try await serve() }
    }

    private func serve() async throws -> Int32 {
        let printer = RequestLogPrinter()
        let loaded = try ScenarioLoader.load(contentsOf: URL(fileURLWithPath: scenario))
        let server = try await MockServer.create(
            port: port,
            configuration: .init(maxRecordedRequests: 10_000, onResponse: printer.log, allowedOrigins: allowOrigins,
                                  allowedHosts: allowHosts))
        await server.load(loaded)
        printer.print("robotci mock: serving \(scenario) on \(await server.baseURL) (Ctrl-C to stop)")
        await Self.waitForTerminationSignal()
        try await server.stopOrThrow()
        printer.flush()
        return 0
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
