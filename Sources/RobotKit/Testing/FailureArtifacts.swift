import Foundation
import WorkerContract

/// Writes a test's artifacts flat into one folder: `steps.json` always; on failure
/// also `screenshot.png`, `accessibility.txt`, `page.html` and `console.log`.
enum FailureArtifacts {
    static let steps = ArtifactFile.steps
    static let screenshot = ArtifactFile.screenshot
    static let accessibility = ArtifactFile.accessibility
    static let page = ArtifactFile.page
    static let console = ArtifactFile.console

    /// Writes what it can; returns one message per artifact that could not be written.
    @discardableResult
    static func write(app: WebApp?, failed: Bool, recorder: StepRecorder, to directory: URL) -> [String] {
        var problems: [String] = []
        func save(_ name: String, _ produce: () throws -> Data) {
            do {
                try produce().write(to: directory.appendingPathComponent(name), options: .atomic)
            } catch {
                problems.append("could not write \(name) to \(directory.path): \(error)")
            }
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            return ["could not create artifacts folder \(directory.path): \(error)"]
        }
        save(steps) { try recorder.jsonData() }
        guard failed else { return problems }
        guard let app, app.state == .runningForeground else {
            save(accessibility) { Data("Application (not running at the end of the test)\n".utf8) }
            return problems
        }
        save(screenshot) { try app.screenshot() }
        save(accessibility) { Data((app.accessibilityTree + "\n").utf8) }
        save(page) { Data(try app.pageSource().utf8) }
        save(console) {
            let lines = try app.consoleLog().map { entry in
                let time = Date(timeIntervalSince1970: entry.timestamp / 1000)
                return "\(time.formatted(.iso8601)) [\(entry.level)] \(entry.message)"
            }
            return Data((lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")).utf8)
        }
        return problems
    }
}
