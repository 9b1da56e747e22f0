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
        verifySnapshot(name, of: nil, tolerance: tolerance, settings: SnapshotSettings(), at: Caller(function: function, file: file, line: line))
    }

    /// The check behind `verifySnapshot` of the app (`element` nil) or of an element (its box).
    func verifySnapshot(
        _ name: String, of element: WebElement?, tolerance: SnapshotTolerance?, settings: SnapshotSettings, at caller: Caller
    ) -> Bool {
        // A halted test does nothing more, as every action (Linux XCTest cannot unwind it).
        if recorder.isHalted { return true }
        recorder.begin(function: caller.function, file: "\(caller.file)", line: caller.line)
        defer { recorder.end() }
        let started = Date()
        let target = element?.target ?? ""
        let tolerance = tolerance ?? settings.tolerance
        func step(_ arguments: [String], error: String?) -> TraceRecorder.StepDraft {
            TraceRecorder.StepDraft("verify snapshot", target, arguments: arguments, at: caller.site, started: started, error: error)
        }
        func fail(_ message: String, _ arguments: [String], visual: TraceRecorder.Visual? = nil) -> Bool {
            var failed = step(arguments, error: message)
            failed.visual = visual
            traceStep(failed)
            XCTFail(message, file: caller.file, line: caller.line)
            return false
        }
        guard let location = SnapshotLocation.current(name: name) else {
            return fail("verifySnapshot(named: \"\(name)\") must run inside a test (XCTest or Swift Testing): "
                        + "its baseline is named after the test", [name])
        }
        let check = SnapshotCheck(location: location, baseline: location.baseline(beside: "\(caller.file)", root: settings.root),
                                  update: settings.update, tolerance: tolerance, records: settings.records)
        do {
            let page = try requirePage()
            let shot = try StillCapture(driver: page.driver).capture { () throws(RobotKitError) -> CGRect? in
                try element.map { element throws(RobotKitError) in try frame(of: element, in: page) }
            }
            let stills = "\(shot.captures) captures"
            switch try check.judge(shot.image) {
            case .matched(let differing):
                traceStep(step([name, "matched (\(differing) pixels differ)", stills], error: nil))
                return true
            case .recorded(let what):
                traceStep(step([name, what, stills], error: nil))
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

    /// The element's box, scrolled into view: it must exist (waiting up to `implicitWaitTimeout`) and be unique.
    private func frame(of element: WebElement, in page: LaunchedPage) throws(RobotKitError) -> CGRect {
        let reply = try Engine(page: page).wait(element.chain, appear: true, timeout: implicitWaitTimeout, op: .reveal)
        guard reply.exists, let info = reply.info else {
            throw .webDriver(code: "no such element", "no matches found for \(element.target)")
        }
        if reply.ambiguous {
            throw .webDriver(code: "ambiguous", "multiple matching elements found for \(element.target) (\(reply.count)); "
                             + "use .firstMatch or element(boundBy:)")
        }
        return info.frame
    }
}
