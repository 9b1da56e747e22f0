import Foundation
import MockServer
import ProcessToolkit
import StandardStreams
import WorkerContract

/// Records a test's step trace (`trace/trace.json`, docs/trace-format.md): one step per UI
/// action of any live `WebApp`, each with a JPEG of the viewport and a script-free DOM
/// snapshot after it, the mock requests answered during it and the console lines it logged.
/// The step's files are written as it ends and `trace.json` is rewritten after each step, so
/// a test that crashes or hangs leaves its trace up to the last step.
///
/// One trace per test: a new test (another `TestIdentity.current`) starts a new one.
final class TraceRecorder: Sendable {
    private struct Open {
        var test: String
        var directory: URL
        var began: Date
        var trace: Trace
        /// Requests up to this instant belong to earlier steps.
        var requestsSeen: Date
        /// Actions whose page state is what the next captured step finds.
        var awaiting: [Int] = []
        /// When `trace.json` was last written, and whether steps came since.
        var written = Date.distantPast
        var unwritten = false
        /// Reads whose caller is still a captured stack, by step: resolved when the trace is kept.
        var pendingSites: [Int: CallSite.Pending] = [:]

        /// Puts each pending read at its caller's line (once: resolving reads debug information).
        mutating func resolveSites() {
            for (index, pending) in pendingSites where index < trace.steps.count {
                guard let site = pending.resolve() else { continue }
                trace.steps[index].file = site.file
                trace.steps[index].line = Int(site.line)
                if !site.function.isEmpty {
                    trace.steps[index].group = "\(StepRecorder.robotName(file: site.file)).\(StepRecorder.methodName(site.function))"
                }
            }
            pendingSites = [:]
        }
    }

    /// `trace.json` is rewritten at least this often while steps come, and at once at a
    /// failure, a console attachment, `terminate` and the test's end: encoding the whole
    /// trace after every step cost more than the steps' capture.
    static let writeInterval: TimeInterval = 1

    let mode: TraceMode
    private let open = Locked<Open?>(nil)
    /// While above zero, steps are not recorded: a polling wait is one step, not one per poll.
    private let muted = Locked(0)

    /// Runs `body` with its steps left out of the trace (the caller records one step for all).
    func muting<T>(_ body: () -> T) -> T {
        muted.withLock { $0 += 1 }
        defer { muted.withLock { $0 -= 1 } }
        return body()
    }

    init(mode: TraceMode) {
        self.mode = mode
    }

    /// What the page showed after a step.
    struct PageState {
        var screenshot: Data?
        var snapshot: String?
        var text: String?
        var console: [BrowserLogEntry]
        /// The document did not change since the last step's snapshot: that one stands.
        var unchanged = false
    }

    /// A failed snapshot's images for its step: written beside the step as
    /// `step-NNN-expected.png`, `-actual.png`, `-diff.png`.
    struct Visual {
        var step: Trace.Visual
        var images: [(role: String, data: Data)]

        init(evidence: SnapshotEvidence) {
            step = Trace.Visual(
                name: evidence.check.location.name, baseline: evidence.check.baseline.path, kind: evidence.kind.rawValue,
                command: evidence.check.acceptCommand,
                pixels: evidence.result.map { ($0.differing, $0.total) })
            images = evidence.images
        }
    }

    /// Whether the open trace's last step has a snapshot (the next may then be `unchanged`).
    var hasSnapshot: Bool {
        let test = TestIdentity.current ?? Self.unnamed
        return open.withLock { o in o.map { $0.test == test && $0.trace.steps.contains { $0.snapshot != nil } } ?? false }
    }

    /// Whether robotci keeps this trace: always under `always`; under `on-failure` after a
    /// failure, on a retry or a repetition (a first attempt that passes is deleted).
    private func keeps(_ trace: Trace) -> Bool {
        if mode == .always { return true }
        let environment = WorkerEnvironment()
        return environment.attempt > 1 || environment.repetition != nil || trace.steps.contains { $0.outcome == "failed" }
    }

    /// Whether the console lines of this test are worth a round trip at `terminate`: under
    /// `on-failure` only a trace that robotci may keep needs them (a failure so far, a retry,
    /// a repetition); a first attempt that passes is deleted.
    var wantsConsole: Bool {
        guard mode != .off else { return false }
        if mode == .always { return true }
        let environment = WorkerEnvironment()
        if environment.attempt > 1 || environment.repetition != nil { return true }
        return open.withLock { $0?.trace.steps.contains { $0.outcome == "failed" } ?? false }
    }

    /// Console lines fetched after their steps ended: each goes to the last step that began
    /// before it was logged.
    func attachConsole(_ entries: [BrowserLogEntry]) {
        guard mode != .off, !entries.isEmpty else { return }
        open.withLock { current in
            guard var o = current, !o.trace.steps.isEmpty else { return }
            for entry in entries {
                let at = entry.timestamp / 1000 - o.began.timeIntervalSince1970
                let index = o.trace.steps.lastIndex { $0.start <= at } ?? 0
                let line = Trace.ConsoleLine(level: entry.level, message: entry.message)
                if !o.trace.steps[index].console.contains(line) { o.trace.steps[index].console.append(line) }
            }
            Self.writeIndex(o.trace, in: o.directory)
            current = o
        }
    }

    /// Adds a step that ran from `started` until now. `page` captures the page's state (nil
    /// when no page is open). Problems writing are said once on standard error: a trace
    /// never fails a test.
    func record(name: String, target: String, arguments: [String] = [], function: String, file: String, line: UInt,
                started: Date, error: String?, page: (() -> PageState)?, awaitsNextPage: Bool = false,
                site: CallSite.Pending? = nil, visual: Visual? = nil) {
        guard mode != .off, muted.current == 0 else { return }
        // The observer registers at the first launch, after XCTest announced the process's
        // first test: that test has no name until it finishes (`finish(test:)`).
        let test = TestIdentity.current ?? Self.unnamed
        let ended = Date()
        let state = page?()
        open.withLock { current in
            if let open = current, open.test != test, !(open.test == Self.unnamed || test == Self.unnamed) {
                current = nil
            }
            if current == nil {
                current = Self.begin(test: test, at: started)
            }
            guard var o = current else { return }
            let index = o.trace.steps.count
            let stem = String(format: "step-%03d", index)
            let group = function.isEmpty ? nil : "\(StepRecorder.robotName(file: file)).\(StepRecorder.methodName(function))"
            var step = Trace.Step(
                index: index, action: .init(name: name, target: target, arguments: arguments),
                origin: .init(group: group, file: file, line: Int(line)),
                timing: (start: started.timeIntervalSince(o.began), duration: ended.timeIntervalSince(started)),
                verdict: error.map { .failed($0) } ?? .passed, evidence: .init(text: state?.text))
            if let jpeg = state?.screenshot, Self.write(jpeg, "\(stem).jpg", in: o.directory) { step.screenshot = "\(stem).jpg" }
            if let html = state?.snapshot, Self.write(Data(html.utf8), "\(stem).html", in: o.directory) {
                step.snapshot = "\(stem).html"
            } else if state?.unchanged == true, let last = o.trace.steps.last(where: { $0.snapshot != nil }) {
                step.snapshot = last.snapshot
                step.text = last.text
            }
            if step.snapshot != nil {
                for i in o.awaiting where i < o.trace.steps.count {
                    o.trace.steps[i].snapshot = step.snapshot
                    o.trace.steps[i].text = step.text
                }
                o.awaiting = []
            } else if awaitsNextPage {
                o.awaiting.append(index)
            }
            step.requests = MockServer.answeredRequests(after: o.requestsSeen, until: ended).map {
                Trace.Request(method: $0.method.rawValue, path: $0.path, route: $0.matchedRoute, status: $0.status.code)
            }
            o.requestsSeen = ended
            step.console = (state?.console ?? []).map { Trace.ConsoleLine(level: $0.level, message: $0.message) }
            if let visual {
                var shown = visual.step
                for (role, data) in visual.images where Self.write(data, "\(stem)-\(role).png", in: o.directory) {
                    switch role {
                    case "expected": shown.expected = "\(stem)-\(role).png"
                    case "actual": shown.actual = "\(stem)-\(role).png"
                    default: shown.diff = "\(stem)-\(role).png"
                    }
                }
                step.visual = shown
            }
            o.trace.steps.append(step)
            if let site { o.pendingSites[index] = site }
            if error != nil { o.resolveSites() }
            if error != nil || name == "terminate" || ended.timeIntervalSince(o.written) >= Self.writeInterval {
                Self.writeIndex(o.trace, in: o.directory)
                o.written = ended
                o.unwritten = false
            } else {
                o.unwritten = true
            }
            current = o
        }
    }

    private static let unnamed = "unnamed test"

    /// A wait that ran out just before `last` with only reads after it, if there is one.
    static func timedOutWait(before last: Int, in steps: [Trace.Step]) -> Int? {
        var index = last
        while index >= 0 {
            let step = steps[index]
            if step.name.hasPrefix("wait for"), step.arguments.contains(where: { $0.hasPrefix("timed out after") }) { return index }
            guard step.name.hasPrefix("read ") else { return nil }
            index -= 1
        }
        return nil
    }

    /// The test `test` (XCTest's name) has finished: its trace is complete, with its name.
    func finish(test: String) {
        guard mode != .off else { return }
        open.withLock { current in
            guard var o = current else { return }
            let resolve = !o.pendingSites.isEmpty && keeps(o.trace)
            if resolve { o.resolveSites() }
            if o.trace.test == Self.unnamed || o.unwritten || resolve {
                if o.trace.test == Self.unnamed { o.trace.test = test }
                Self.writeIndex(o.trace, in: o.directory)
            }
            current = nil
        }
    }

    /// Marks the last step failed with `message` (a failure reported after the action that
    /// caused it, e.g. an `XCTAssert` on a value the action returned).
    func recordFailure(_ message: String) {
        guard mode != .off else { return }
        let test = TestIdentity.current ?? Self.unnamed
        open.withLock { current in
            guard var o = current, o.test == test || o.test == Self.unnamed || test == Self.unnamed, var last = o.trace.steps.indices.last else { return }
            guard o.trace.steps[last].outcome == "passed" else { return }
            // `XCTAssertTrue(x.wait(for:…), "… \(x.label)")` reads the element for its message
            // after the wait ran out: the wait, not the read, is what failed.
            if let wait = Self.timedOutWait(before: last, in: o.trace.steps) { last = wait }
            o.resolveSites()
            o.trace.steps[last].outcome = "failed"
            o.trace.steps[last].error = message
            // The failure evidence's screenshot (taken just before) is the failing step's picture.
            let evidence = o.directory.deletingLastPathComponent().appendingPathComponent(ArtifactFile.screenshot)
            let name = String(format: "step-%03d.png", last)
            if o.trace.steps[last].screenshot == nil,
               (try? FileManager.default.copyItem(at: evidence, to: o.directory.appendingPathComponent(name))) != nil {
                o.trace.steps[last].screenshot = name
            }
            Self.writeIndex(o.trace, in: o.directory)
            current = o
        }
    }

    private static func begin(test: String, at start: Date) -> Open? {
        let environment = WorkerEnvironment()
        // Outside robotci: a private folder of its own (mkdtemp, 0700, like the failure
        // evidence's; not the evidence's, which is emptied at the first failure).
        let base = environment.artifactsDirectory ?? FailureEvidence.directory(for: "trace.\(test)", fresh: true)
        let directory = base.appendingPathComponent(ArtifactFile.traceFolder, isDirectory: true)
        // A folder left by an earlier test of this process (not moved away) is not this test's.
        try? FileManager.default.removeItem(at: directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            warn("cannot create the trace folder \(directory.path): \(error)")
            return nil
        }
        let name = test.hasPrefix("swift-testing:") ? String(test.dropFirst("swift-testing:".count)) : test
        return Open(test: test, directory: directory, began: start, trace: Trace(test: name, attempt: environment.attempt),
                    requestsSeen: start.addingTimeInterval(-0.001))
    }

    private static func write(_ data: Data, _ name: String, in directory: URL) -> Bool {
        do {
            try data.write(to: directory.appendingPathComponent(name))
            return true
        } catch {
            warn("cannot write \(name) to \(directory.path): \(error)")
            return false
        }
    }

    private static func writeIndex(_ trace: Trace, in directory: URL) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            try encoder.encode(trace).write(to: directory.appendingPathComponent(ArtifactFile.traceJSON), options: .atomic)
        } catch {
            warn("cannot write \(ArtifactFile.traceJSON) to \(directory.path): \(error)")
        }
    }

    private static let warned = Locked(false)

    private static func warn(_ message: String) {
        let first = warned.withLock { w in defer { w = true }; return !w }
        if first { StandardStream.error.write("RobotKit: trace: \(message)\n") }
    }
}
