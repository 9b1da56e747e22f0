import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Opens a page in headless Chromium and returns the DOM after its script ran.
///
/// Chromium runs in its own session (`setsid`), so on timeout, and after every run,
/// its whole process group is killed: no browser outlives a test.
enum HeadlessChromium {
    static let path = "/usr/bin/chromium"

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func dumpDOM(_ url: URL, timeout: TimeInterval = 30) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("dom.html")
        try Data().write(to: outURL)
        let out = try FileHandle(forWritingTo: outURL)
        defer { try? out.close() }

        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        p.arguments = [
            path, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=\(scratch.appendingPathComponent("profile").path)",
            "--virtual-time-budget=5000", "--dump-dom", url.absoluteString,
        ]
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let group = p.processIdentifier  // setsid execs in place: the pid leads the new group
        defer { killGroup(group) }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning {
            killGroup(group)
            p.waitUntilExit()
            throw Failure(description: "chromium did not finish within \(timeout) s for \(url.path)")
        }
        let dom = try String(contentsOf: outURL, encoding: .utf8)
        guard !dom.isEmpty else { throw Failure(description: "chromium printed no DOM for \(url) (status \(p.terminationStatus))") }
        return dom
    }

    /// SIGKILL to the group, then wait (briefly) until none of its processes is left.
    static func killGroup(_ group: pid_t) {
        guard group > 1 else { return }
        kill(-group, SIGKILL)
        for _ in 0..<100 where kill(-group, 0) == 0 { usleep(20_000) }
    }

    /// Whether any process of the group is still alive (for the no-survivor check).
    static func groupAlive(_ group: pid_t) -> Bool { kill(-group, 0) == 0 }

    /// The value of `name="…"` on the first element that has it.
    static func attribute(_ name: String, in dom: String) -> String? {
        guard let r = dom.range(of: "\(name)=\"") else { return nil }
        guard let end = dom[r.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(dom[r.upperBound..<end])
    }
}
