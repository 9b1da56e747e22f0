import Foundation
import WorkerContract

/// Writes a test's artifacts flat into one folder: `steps.json` always; on failure
/// also `screenshot.png`, `accessibility.txt`, `page.html` and `console.log`, and after a
/// failed accessibility audit `accessibility-audit.json` and `accessibility-audit.png` (with a
/// `-2`, `-3`… suffix for a test's second and later apps).
enum FailureArtifacts {
    static let steps = ArtifactFile.steps
    static let screenshot = ArtifactFile.screenshot
    static let accessibility = ArtifactFile.accessibility
    static let page = ArtifactFile.page
    static let console = ArtifactFile.console

    /// Writes the steps and, when `failed`, the evidence of `app` (or a note that it is not
    /// running). Returns one message per artifact that could not be written.
    @discardableResult
    static func write(app: WebApp?, failed: Bool, recorder: StepRecorder, to directory: URL) -> [String] {
        var problems = save(steps, in: directory) { try recorder.jsonData() }
        guard failed else { return problems }
        guard let app, app.state == .runningForeground else {
            return problems + save(accessibility, in: directory) {
                Data("Application (not running at the end of the test)\n".utf8)
            }
        }
        problems += writeEvidence(of: app, suffix: "", to: directory)
        return problems
    }

    /// The screenshot, accessibility tree, page HTML and console log of a running app.
    static func writeEvidence(of app: WebApp, suffix: String, to directory: URL) -> [String] {
        func named(_ file: String) -> String {
            guard !suffix.isEmpty, let dot = file.lastIndex(of: ".") else { return file }
            return file[..<dot] + suffix + file[dot...]
        }
        var problems = save(named(screenshot), in: directory) { try app.screenshot() }
        problems += save(named(accessibility), in: directory) { Data((app.accessibilityTree + "\n").utf8) }
        problems += save(named(page), in: directory) { Data(try app.pageSource().utf8) }
        problems += save(named(console), in: directory) {
            // A browser without a console log (WebKit) says so in the file rather than failing the evidence.
            let entries: [BrowserLogEntry]
            switch Result(catching: { () throws(RobotKitError) in try app.consoleLog() }) {
            case .success(let read): entries = read
            case .failure(let error) where error.isUnsupported: return Data("(\(error.message))\n".utf8)
            case .failure(let error): throw error
            }
            let lines = entries.map { entry in
                let time = Date(timeIntervalSince1970: entry.timestamp / 1000)
                return "\(time.formatted(.iso8601)) [\(entry.level)] \(entry.message)"
            }
            return Data((lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")).utf8)
        }
        if let audit = app.auditEvidence {
            problems += save(named(ArtifactFile.accessibilityAudit), in: directory) { try audit.json() }
            if let outlined = audit.screenshot {
                problems += save(named(ArtifactFile.accessibilityAuditScreenshot), in: directory) { outlined }
            }
        }
        return problems
    }

    private static func save(_ name: String, in directory: URL, _ produce: () throws -> Data) -> [String] {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try produce().write(to: directory.appendingPathComponent(name), options: .atomic)
            return []
        } catch {
            return ["could not write \(name) to \(directory.path): \(error)"]
        }
    }
}
