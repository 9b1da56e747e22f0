// Fuzzes the bundle output readers (XCTestOutputReader, SwiftTestingOutputReader): a batch
// of 1–4 tests, a sequence of lines, and how the process ended, fed to one reader alone;
// the effects it returns are checked against what a batch must be able to rely on.
//
// Input: byte 0 picks the batch (bits 0–1: 1–4 tests; bit 2: Swift Testing; bits 3–5: how
// the process ended; bit 6: the batch hands back a file for every `.artifactsDue`). The rest,
// split at "\n", are the lines. A line whose first byte is below 8 is shorthand for a line
// of the protocol about test (next byte % n): XCTest's start/passed/failed/skipped/error/
// summary, or Swift Testing's started/ended/issue/cancelled/skipped events; 6 is silence
// (the clock jumps 50 s), 7 a line for a test outside the batch. Any other line is raw
// output; for Swift Testing, one starting with "{" goes to the event channel.
import FuzzSupport
import ProcessToolkit
import RobotCICore
@testable import RobotCIRunner

private let xctestNames = [TestID("M.C/testA"), TestID("M.C/testB"), TestID("M.D/testA"), TestID("N.E/test_c")]
private let swiftTestingNames = [TestID("M.S/one()"), TestID("M.S/two()"), TestID("M.S/check(_:)/S.swift:3:4"),
                                 TestID("M.S/check(_:)/S.swift:9:4")]

/// How the process ended, and whether robotci killed it (timeout) or stopped the run.
private enum End {
    case exit(Int32), signal(Int32), timedOut, stopped
}

private let ends: [End] = [.exit(0), .exit(1), .signal(11), .timedOut, .stopped, .exit(0), .exit(2), .signal(4)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundleOutputReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)
    guard let head = input.first else { return 0 }
    let count = Int(head & 3) + 1
    let swiftTesting = head & 4 != 0
    let end = ends[Int(head >> 3) & 7]
    let handsBackFiles = head & 64 != 0
    let tests = Array((swiftTesting ? swiftTestingNames : xctestNames).prefix(count))
    let lines = Array(input.dropFirst()).split(separator: 10, omittingEmptySubsequences: false)
    let facts = ReaderBatch(item: WorkItem(id: 3, tests: tests, attempt: 1), shard: 0, logPath: "batches/3.log", start: 1000,
                            rules: TestRules(retries: 0, testTimeout: 30))
    if swiftTesting {
        var run = Run(reader: SwiftTestingOutputReader(batch: facts), tests: tests, handsBackFiles: handsBackFiles)
        for raw in lines { run.read(raw, swiftTesting: true) }
        run.end(end)
    } else {
        var run = Run(reader: XCTestOutputReader(batch: facts), tests: tests, handsBackFiles: handsBackFiles)
        for raw in lines { run.read(raw, swiftTesting: false) }
        run.end(end)
    }
    return 0
}

/// One batch: the reader, the clock, and what was reported.
private struct Run<Reader: BundleOutputReading> {
    var reader: Reader
    let tests: [TestID]
    let handsBackFiles: Bool
    var time = 1000.0
    var provisional = Set<TestID>()

    init(reader: Reader, tests: [TestID], handsBackFiles: Bool) {
        self.reader = reader
        self.tests = tests
        self.handsBackFiles = handsBackFiles
    }

    mutating func read(_ raw: ArraySlice<UInt8>, swiftTesting: Bool) {
        time += 0.25
        if let op = raw.first, op < 8 {
            let test = tests[Int(raw.dropFirst().first ?? 0) % tests.count]
            if op == 6 { time += 50; return }
            if swiftTesting {
                apply(reader.read(event: Substring(event(op, test)), at: time), fromLine: nil)
            } else {
                let line = Substring(xctestLine(op, test, raw.dropFirst(2)))
                apply(reader.read(line: line, at: time), fromLine: line)
            }
            return checkDeadline()
        }
        let line = Substring(String(decoding: raw, as: UTF8.self))
        if swiftTesting && line.hasPrefix("{") {
            apply(reader.read(event: line, at: time), fromLine: nil)
        } else {
            apply(reader.read(line: line, at: time), fromLine: line)
        }
        checkDeadline()
    }

    func checkDeadline() {
        let deadline = reader.deadline()
        require(deadline.isFinite && deadline >= 1000, "deadline \(deadline) before the batch started")
    }

    /// Effects of one input: only reading effects, the line logged first.
    mutating func apply(_ effects: [ReaderEffect], fromLine line: Substring?) {
        if let line { require(effects.first == .log(line), "a console line is not logged first: \(effects)") }
        for (i, effect) in effects.enumerated() {
            switch effect {
            case .log: require(line != nil && i == 0, "a log effect that is not the line: \(effects)")
            case .artifactsDue(let test):
                require(tests.contains(test), "files asked for \(test), not in the batch")
                if handsBackFiles { reader.attach([Artifact(kind: .screenshot, path: "a/\(test.description)")], to: test) }
            case .provisionalFailure(let test, let attempt):
                require(tests.contains(test) && attempt.outcome == .failed && !attempt.failures.isEmpty,
                        "provisional failure of \(test): \(attempt)")
                require(provisional.insert(test).inserted, "\(test) counted as failed twice")
            case .provisionalSettled, .report, .notRun, .discard:
                require(false, "\(effect) while the process still runs")
            }
        }
    }

    mutating func end(_ end: End) {
        time += 0.5
        let finish: ReaderFinish
        var termination = ChildProcess.Termination.exited(0)
        var timedOut = false
        switch end {
        case .stopped: finish = reader.finishStopped(reason: "stopped")
        case .timedOut:
            termination = .signaled(9)
            timedOut = true
            finish = reader.finish(end: termination, timedOut: true, now: time)
        case .exit(let code):
            termination = .exited(code)
            finish = reader.finish(end: termination, timedOut: false, now: time)
        case .signal(let signal):
            termination = .signaled(signal)
            finish = reader.finish(end: termination, timedOut: false, now: time)
        }
        check(finish, termination: termination, timedOut: timedOut, stopped: { if case .stopped = end { true } else { false } }())
    }

    func check(_ finish: ReaderFinish, termination: ChildProcess.Termination, timedOut: Bool, stopped: Bool) {
        let effects = finish.effects
        require(effects.filter { $0 == .provisionalSettled }.count == 1, "settled once: \(effects)")
        var reported: [TestID: Attempt] = [:]
        var notRun = Set<TestID>()
        var discarded: [TestID] = []
        var settled = false
        var failedHeld = provisional
        for effect in effects {
            switch effect {
            case .provisionalSettled: settled = true
            case .report(let test, let attempt):
                require(settled, "a report before the held results were settled")
                require(reported.updateValue(attempt, forKey: test) == nil, "\(test) reported twice")
                checkAttempt(test, attempt)
            case .notRun(let test, _): require(notRun.insert(test).inserted, "\(test) notRun twice")
            case .discard(let test): discarded.append(test)
            case .log(let line): require(line.hasPrefix("robotci: ") && !hasNewline(line), "a note of the reader: \(line)")
            case .provisionalFailure(let test, _):
                require(!settled, "\(test) counted as failed after the results were settled")
                require(tests.contains(test) && failedHeld.insert(test).inserted, "provisional failure of \(test)")
            case .artifactsDue: require(false, "files asked for at the end")
            }
        }
        require(discarded == finish.isolate, "discarded \(discarded), isolated \(finish.isolate)")
        let unstarted = reader.unstarted
        // Every test of the batch ends in one place: reported, run again alone, notRun, or
        // unstarted (the batch gives those back). Stopped early, a doubted result is dropped.
        var seen: [TestID: Int] = [:]
        for test in Array(reported.keys) + finish.isolate + Array(notRun) + unstarted { seen[test, default: 0] += 1 }
        for test in tests {
            let times = seen[test] ?? 0
            require(stopped ? times <= 1 : times == 1, "\(test) accounted for \(times) times (reported \(reported.keys.sorted { $0.description < $1.description }), isolate \(finish.isolate), notRun \(notRun), unstarted \(unstarted))")
        }
        require(Set(seen.keys).isSubset(of: Set(tests)), "a test outside the batch: \(seen)")
        require(reader.noTestStarted == (unstarted.count == tests.count), "noTestStarted disagrees with unstarted")
        if stopped {
            require(finish.isolate.isEmpty && notRun.count <= 1, "stopped: isolate \(finish.isolate), notRun \(notRun)")
            return
        }
        require(notRun.isEmpty, "notRun without a stop")
        let blamed = reported.filter { $0.value.outcome == .crashed || $0.value.outcome == .timedOut }
        if tests.count == 1 {
            if let only = reported.values.first {
                // How the lone process ended is the verdict.
                switch termination {
                case _ where timedOut: require(only.outcome == .timedOut, "lone test hung: \(only.outcome)")
                case .signaled: require(only.outcome == .crashed, "lone test crashed: \(only.outcome)")
                case .exited(0): require(only.outcome != .timedOut, "lone test exited 0: \(only.outcome)")
                case .exited: require(only.outcome == .failed || only.outcome == .crashed, "lone test exited non-zero: \(only.outcome)")
                }
                if case .exited(0) = termination, failedHeld.contains(tests[0]) {
                    require(only.outcome == .failed, "a failure, then exit(0), became \(only.outcome)")
                }
            }
            return
        }
        if !blamed.isEmpty {
            // A crash or hang reports the blamed test alone; what ran before it runs again.
            require(blamed.count == 1 && reported.count == 1, "blamed \(blamed.keys), reported \(reported.keys)")
            require(blamed.values.first?.outcome == (timedOut ? .timedOut : .crashed), "blamed \(blamed) after \(termination)")
        } else if !reported.isEmpty {
            // Results stand only when the exit status agrees with them.
            guard case .exited(let code) = termination, !timedOut else { return require(false, "results reported after \(termination)") }
            let failed = reported.values.contains { $0.outcome == .failed }
            require((code == 0) == !failed, "exit \(code) with results \(reported.values.map(\.outcome))")
            require(finish.isolate.isEmpty, "some results reported and others isolated")
        }
    }

    func checkAttempt(_ test: TestID, _ attempt: Attempt) {
        require(attempt.duration.isFinite && attempt.duration >= 0, "\(test): duration \(attempt.duration)")
        require(attempt.start >= 1000 && attempt.start <= time, "\(test): start \(attempt.start)")
        switch attempt.outcome {
        case .passed: require(attempt.failures.isEmpty, "\(test) passed with failures \(attempt.failures)")
        case .failed, .crashed, .timedOut: require(!attempt.failures.isEmpty, "\(test) \(attempt.outcome) without a failure")
        default: break
        }
        if handsBackFiles == false {
            require(attempt.artifacts.allSatisfy { $0.kind == .log }, "\(test): artifacts nobody handed back")
        }
    }

    /// XCTest's own line `op` about `test`.
    func xctestLine(_ op: UInt8, _ test: TestID, _ rest: ArraySlice<UInt8>) -> String {
        let name = op == 7 ? "Other.testX" : test.outputName
        let n = Int(rest.first ?? 0)
        switch op {
        case 0, 7: return "Test Case '\(name)' started at 2026-01-01 00:00:00.000"
        case 1: return "Test Case '\(name)' passed (0.\(n) seconds)"
        case 2: return "Test Case '\(name)' failed (0.\(n) seconds)"
        case 3: return "Test Case '\(name)' skipped (0.000 seconds)"
        case 4: return "/src/T.swift:\(n): error: \(name) : XCTAssertTrue failed"
        default:
            let skipped = Int(rest.dropFirst().first ?? 0) % 3
            return "\t Executed \(n % 6) tests, with \(skipped) tests skipped and \(Int(rest.dropFirst(2).first ?? 0) % 3) failures (0 unexpected) in 0.1 (0.1) seconds"
        }
    }

    /// Swift Testing's event `op` about `test`.
    func event(_ op: UInt8, _ test: TestID) -> String {
        let id = op == 7 ? "Other.S/x()/S.swift:1:1" : test.description.contains(".swift:") ? test.description : "\(test.description)/S.swift:3:4"
        let kind = ["testStarted", "testEnded", "issueRecorded", "testCancelled", "testSkipped", "testStarted", "", "testStarted"][Int(op)]
        let issue = op == 2 ? #""issue":{"isKnown":false,"sourceLocation":{"_filePath":"/src/S.swift","line":9}},"# : ""
        return #"{"kind":"event","payload":{\#(issue)"kind":"\#(kind)","messages":[{"symbol":"default","text":"m"}],"testID":"\#(id)"},"version":0}"#
    }
}
