import Foundation
import LoopbackSockets
import ProcessToolkit
import XCTest

/// A report folder over HTTP on loopback (python3's http.server: files served as what they
/// are), for the browser tests that must see the report as a web server gives it. `stop()`
/// kills the server by its pid.
final class StaticFileServer {
    private let process: Process
    /// `http://127.0.0.1:PORT/index.html`.
    let index: URL

    init(root: URL) throws {
        let port = try XCTUnwrap(Loopback.freePort(), "no free loopback port")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory", root.path, String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        index = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/index.html"))
        let deadline = Date().addingTimeInterval(10)
        while (try? Data(contentsOf: index)) == nil && Date() < deadline { usleep(50_000) }
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    deinit { stop() }
}
