import Foundation
import SnapshotCompare
import WorkerContract
import XCTest

extension WebApp {
    /// Compares the viewport with its baseline, `__Snapshots__/<browser>/<TestType>/<test>.<name>.png`
    /// beside `file`, once the page is still (docs/RobotKit.md, *Snapshots*). A mismatch beyond
    /// `tolerance` (default: `--snapshot-tolerance`, else ``SnapshotTolerance/standard``) fails
    /// the test at the caller's line and leaves the expected, actual and diff images in the
    /// report; a missing baseline is recorded (`--update-snapshots` decides whether that
    /// passes). Returns whether the check passed.
    @discardableResult
    public func verifySnapshot(
        named name: String, tolerance: SnapshotTolerance? = nil, function: String = #function,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        verifySnapshot(name, of: nil, target: "", tolerance: tolerance, settings: SnapshotSettings(), function: function, file: file,
                       line: line)
    }

    /// The check behind `verifySnapshot` of the app (`chain` nil) or of an element (its box).
    func verifySnapshot(_ name: String, of chain: [QueryStep]?, target: String, tolerance: SnapshotTolerance?,
                        settings: SnapshotSettings, function: String, file: StaticString, line: UInt) -> Bool {
        // A halted test does nothing more, as every action (Linux XCTest cannot unwind it).
        if recorder.isHalted { return true }
        recorder.begin(function: function, file: "\(file)", line: line)
        defer { recorder.end() }
        let started = Date()
        let verb = "verify snapshot"
        let tolerance = tolerance ?? settings.tolerance
        func fail(_ message: String, _ arguments: [String], visual: TraceRecorder.Visual? = nil) -> Bool {
            traceStep(verb, target, arguments: arguments, function: function, file: "\(file)", line: line, started: started,
                      error: message, visual: visual)
            XCTFail(message, file: file, line: line)
            return false
        }
        guard let location = SnapshotLocation.current(name: name) else {
            return fail("verifySnapshot(named: \"\(name)\") must run inside a test (XCTest or Swift Testing): "
                        + "its baseline is named after the test", [name])
        }
        let check = SnapshotCheck(location: location, baseline: location.baseline(beside: "\(file)", root: settings.root),
                                  update: settings.update, tolerance: tolerance, records: settings.records)
        do {
            let page = try requirePage()
            let shot = try StillCapture(driver: page.driver).capture { () throws(RobotKitError) -> CGRect? in
                guard let chain else { return nil }
                let reply = try Engine(page: page).wait(chain, appear: true, timeout: implicitWaitTimeout, op: .reveal)
                guard reply.exists, let info = reply.info else {
                    throw .webDriver(code: "no such element", "no matches found for \(target)")
                }
                if reply.ambiguous {
                    throw .webDriver(code: "ambiguous", "multiple matching elements found for \(target) (\(reply.count)); "
                                     + "use .firstMatch or element(boundBy:)")
                }
                return info.frame
            }
            let stills = "\(shot.captures) captures"
            switch try check.judge(shot.image) {
            case .matched(let differing):
                traceStep(verb, target, arguments: [name, "matched (\(differing) pixels differ)", stills], function: function,
                          file: "\(file)", line: line, started: started, error: nil)
                return true
            case .recorded(let what):
                traceStep(verb, target, arguments: [name, what, stills], function: function, file: "\(file)", line: line,
                          started: started, error: nil)
                return true
            case .failed(let message, let evidence):
                let test = TestIdentity.current ?? "unnamed test"
                let directory = SnapshotEvidence.directory(for: test)
                let problems = evidence.write(to: directory)
                var said = message
                if !WorkerEnvironment().isUnderRobotCI { said += " (images: \(directory.path))" }
                for problem in problems { said += " (\(problem))" }
                return fail(said, [name, evidence.kind.rawValue, stills],
                            visual: TraceRecorder.Visual(evidence: evidence))
            }
        } catch {
            return fail("failed to verify snapshot \"\(name)\"\(target.isEmpty ? "" : " of \(target)"): \(error.message)", [name])
        }
    }
}
