import Foundation
import ProcessToolkit
import RobotCICore
import StandardStreams
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Live progress on stderr: one redrawn line on a terminal; plain lines (each
/// problem as it happens, a status line every 10 s) in CI or when piped.
final class Progress: Sendable {
    /// The counts and the console line. What it prints it prints with the lock held, so lines
    /// from different shards never interleave with the redrawn status line.
    private struct Console {
        let interactive: Bool
        let shards: Int
        let clock: RunClock
        var total: Int
        var done = 0
        var failed = 0
        var flaky = 0
        var retriesQueued = 0
        var busy: Set<Int> = []
        var lastDraw = -1.0
        var lastPlain = 0.0
        var lineVisible = false
        var eta: RunETA
        /// False in queue mode: this machine runs a share of the plan no one knows in advance.
        let showsETA: Bool

        func statusText() -> String {
            let elapsed = clock.now()
            var etaText = ""
            if showsETA, done < total, let remaining = eta.seconds(now: elapsed) {
                etaText = String(format: ", ETA %.0fs", remaining.rounded(.up))
            }
            // One mark per shard: busy (running a batch) or idle.
            let shardMarks = (0..<shards).map { busy.contains($0) ? "■" : "·" }.joined()
            return String(format: "[%.1fs] %d/%d done, %d failed, %d flaky, %d retries, shards %@%@", elapsed, done, total, failed, flaky, retriesQueued, shardMarks, etaText)
        }

        mutating func draw(force: Bool) {
            let now = clock.now()
            if interactive {
                guard force || now - lastDraw > 0.1 else { return }
                lastDraw = now
                var text = statusText()
                let width = 120
                if text.count > width { text = String(text.prefix(width)) }
                StandardStream.error.write("\r\u{1B}[2K\(text)")
                lineVisible = true
            } else if now - lastPlain >= 10 || done == total {
                guard done != 0 || now - lastPlain >= 10 else { return }
                if done == total && lastPlain < 0 { return }
                lastPlain = done == total ? -1 : now
                StandardStream.error.write(statusText() + "\n")
            }
        }

        mutating func clearLine() {
            if interactive && lineVisible {
                StandardStream.error.write("\r\u{1B}[2K")
                lineVisible = false
            }
        }
    }

    private let console: Locked<Console>

    /// `planned`: the tests with what the plan expects of them (`RunETA`), named as this
    /// progress line will be told of them, and how many shards are expected to run at once;
    /// nil: no ETA (queue mode).
    init(total: Int, shards: Int, clock: RunClock, environment: [String: String],
         planned: (tests: [PlannedTest], atOnce: Int)? = ([], 1)) {
        let ci = environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        let interactive = isatty(2) == 1 && !ci && environment["TERM"] != "dumb"
        console = Locked(Console(interactive: interactive, shards: shards, clock: clock, total: total,
                                 eta: RunETA(planned: planned?.tests ?? [], total: total, atOnce: planned?.atOnce ?? 1),
                                 showsETA: planned != nil))
    }

    /// Prints a line above the progress line.
    func log(_ text: String) {
        console.withLock { c in
            c.clearLine()
            StandardStream.error.write(text + "\n")
            c.draw(force: true)
        }
    }

    /// Planned tests that left the run (`--until-failure`'s dropped repetitions), named as
    /// this line is told of tests.
    func withdraw(_ tests: [TestID]) {
        console.withLock { c in
            c.total = max(c.done, c.total - tests.count)
            c.eta.withdraw(tests)
        }
    }

    func batchStarted(shard: Int) {
        console.withLock { c in
            c.busy.insert(shard)
            c.eta.batchStarted(shard: shard, at: c.clock.now())
            c.draw(force: false)
        }
    }

    func batchFinished(shard: Int) {
        console.withLock { c in
            c.busy.remove(shard)
            c.eta.batchFinished(shard: shard, at: c.clock.now())
        }
    }

    func attemptFinished(_ test: TestID, attempt: Attempt, history: [Attempt], retrying: Bool, quarantined: Bool) {
        console.withLock { c in
            let outcome = attempt.outcome
            if retrying { c.retriesQueued += 1 }
            c.eta.attemptEnded(shard: attempt.shard, at: attempt.start + attempt.duration, took: attempt.duration)
            if !retrying {
                c.done += 1
                c.eta.finished(test, took: attempt.duration, passed: outcome == .passed)
                let verdict = Outcome.verdict(for: history.map(\.outcome), quarantined: quarantined)
                if verdict.failsBuild { c.failed += 1 }
                if verdict == .flaky { c.flaky += 1 }
            }
            if outcome.isFailure || (outcome == .passed && history.count > 1) {
                c.clearLine()
                let what: String
                switch outcome {
                case .passed: what = "FLAKY  \(test) passed on attempt \(attempt.number)"
                case .failed: what = "FAIL   \(test) (attempt \(attempt.number))"
                case .crashed: what = "CRASH  \(test) (attempt \(attempt.number))"
                case .timedOut: what = "TIMEOUT \(test) (attempt \(attempt.number))"
                case .skipped: what = "SKIP   \(test)"
                }
                var text = "\(what) on shard \(attempt.shard)\(retrying ? ", retrying" : "")"
                if let f = attempt.failures.first {
                    let loc = f.file.map { "\($0):\(f.line ?? 0): " } ?? ""
                    text += "\n       \(loc)" + FailureMessage.consoleText(f.message, limit: 300, indent: 7)
                }
                StandardStream.error.write(text + "\n")
            }
            c.draw(force: false)
        }
    }

    func finish() {
        console.withLock { $0.clearLine() }
    }
}
