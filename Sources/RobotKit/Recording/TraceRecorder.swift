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
                let origin = site.origin
                trace.steps[index].file = origin.file
                trace.steps[index].line = origin.line
                if let group = origin.group { trace.steps[index].group = group }
            }
            pendingSites = [:]
        }

        /// Adds `draft` as the trace's next step, with its files, and writes `trace.json` when due.
        mutating func append(_ draft: StepDraft, state: PageState?, ended: Date) {
            let index = trace.steps.count
            let stem = String(format: "step-%03d", index)
            let timing = (start: draft.started.timeIntervalSince(began), duration: ended.timeIntervalSince(draft.started))
            var step = Trace.Step(
                index: index, action: draft.action, origin: draft.caller.origin, timing: timing,
                verdict: draft.error.map { .failed($0) } ?? .passed, evidence: Trace.Step.Evidence(text: state?.text))
            attachPage(state, to: &step, stem: stem, awaitsNextPage: draft.awaitsNextPage)
            step.requests = MockServer.answeredRequests(after: requestsSeen, until: ended).map {
                Trace.Request(method: $0.method.rawValue, path: $0.path, route: $0.matchedRoute, status: $0.status.code)
            }
            requestsSeen = ended
            step.console = (state?.console ?? []).map { Trace.ConsoleLine(level: $0.level, message: $0.message) }
            if let visual = draft.visual { step.visual = savedImages(of: visual, stem: stem) }
            trace.steps.append(step)
            if let site = draft.site { pendingSites[index] = site }
            if draft.error != nil { resolveSites() }
            if draft.error != nil || draft.action.name == "terminate" || ended.timeIntervalSince(written) >= TraceRecorder.writeInterval {
                TraceRecorder.writeIndex(trace, in: directory)
                written = ended
                unwritten = false
            } else {
                unwritten = true
            }
        }

        /// The step's screenshot and snapshot files: an unchanged page keeps the last snapshot,
        /// and the steps awaiting the page get this one.
        private mutating func attachPage(_ state: PageState?, to step: inout Trace.Step, stem: String, awaitsNextPage: Bool) {
            if let jpeg = state?.screenshot, TraceRecorder.write(jpeg, "\(stem).jpg", in: directory) {
                step.screenshot = "\(stem).jpg"
            }
            if let html = state?.snapshot, TraceRecorder.write(Data(html.utf8), "\(stem).html", in: directory) {
                step.snapshot = "\(stem).html"
            } else if state?.unchanged == true, let last = trace.steps.last(where: { $0.snapshot != nil }) {
                step.snapshot = last.snapshot
                step.text = last.text
            }
            if step.snapshot != nil {
                for i in awaiting where i < trace.steps.count {
                    trace.steps[i].snapshot = step.snapshot
                    trace.steps[i].text = step.text
                }
                awaiting = []
            } else if awaitsNextPage {
                awaiting.append(step.index)
            }
        }

        /// A failed snapshot's images, written beside the step, and the `visual` that names them.
        private func savedImages(of visual: Visual, stem: String) -> Trace.Visual {
            var shown = visual.step
            for (role, data) in visual.images where TraceRecorder.write(data, "\(stem)-\(role).png", in: directory) {
                switch role {
                case "expected": shown.expected = "\(stem)-\(role).png"
                case "actual": shown.actual = "\(stem)-\(role).png"
                default: shown.diff = "\(stem)-\(role).png"
                }
            }
            return shown
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

    /// A step as the action that ran reports it; `record` adds when it ended and what the
    /// page, the mock server and the console said.
    struct StepDraft {
        var action: Trace.Step.Action
        /// The caller's file and line, and its function ("" from the test itself).
        var caller: CallSite
        var started: Date
        var error: String?
        /// Captures the page's state (nil when no page is open, or its state is not taken now).
        var page: (() -> PageState)?
        /// The page's state is what the next captured step finds (an action that went through).
        var awaitsNextPage = false
        /// A read's caller, still a captured stack (`caller` is then RobotKit's own line).
        var site: CallSite.Pending?
        var visual: Visual?

        init(_ name: String, _ target: String, arguments: [String] = [], at caller: CallSite, started: Date, error: String?) {
            action = Trace.Step.Action(name: name, target: target, arguments: arguments)
            self.caller = caller
            self.started = started
            self.error = error
        }
    }

    /// Adds a step that ran from `draft.started` until now. Problems writing are said once on
    /// standard error: a trace never fails a test.
    func record(_ draft: StepDraft) {
        guard mode != .off, muted.current == 0 else { return }
        // The observer registers at the first launch, after XCTest announced the process's
        // first test: that test has no name until it finishes (`finish(test:)`).
        let test = TestIdentity.current ?? Self.unnamed
        let ended = Date()
        let state = draft.page?()
        open.withLock { current in
            if let open = current, open.test != test, !(open.test == Self.unnamed || test == Self.unnamed) {
                current = nil
            }
            if current == nil {
                current = Self.begin(test: test, at: draft.started)
            }
            guard var o = current else { return }
            o.append(draft, state: state, ended: ended)
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

extension CallSite {
    /// Where a step ran, as its trace says: with the robot method (`HomeRobot.tapLoad()`) when
    /// the function is known.
    var origin: Trace.Step.Origin {
        let group = function.isEmpty ? nil : "\(StepRecorder.robotName(file: file)).\(StepRecorder.methodName(function))"
        return Trace.Step.Origin(group: group, file: file, line: Int(line))
    }
}
