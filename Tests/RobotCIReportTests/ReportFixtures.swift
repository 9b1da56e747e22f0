import Foundation
import RobotCICore

/// Runs to render: a small one with every outcome, hostile strings and artifacts on
/// disk, and large generated ones for size and speed.
enum ReportFixtures {
    /// Script that marks the page if it ever runs; the browser tests look for the mark.
    static let xssMark = "data-xss"
    static let imgPayload = "<img src=x onerror=\"document.body.setAttribute('data-xss','img')\">"
    static let scriptPayload = "</script><script>document.body.setAttribute('data-xss','script')</script>"
    static let hostileID = TestID("ShopTests.Hostile<script>Tests/test_\(imgPayload)")
    static let controls = "bell\u{07} nul\u{00} esc\u{1B}[31mred\u{1B}[0m cr\r\nline sep\u{2028}para\u{2029} c1\u{85} del\u{7F}"

    static let refund = TestID("ShopTests.CheckoutTests/testRefund")
    static let coupon = TestID("ShopTests.CheckoutTests/testCoupon")
    static let refundMessage = "XCTAssertEqual failed: (\"200\") is not equal to (\"500\") - refund status"
    static let couponMessage = "Element 'couponField' not found after 5.0 s"

    static func metadata(wall: Double, shards: Int) -> RunMetadata {
        var metadata = RunMetadata(
            runID: "run-1234", startedAt: 1_700_000_000, wallTime: wall, shards: shards, retries: 2, robotciVersion: "0.1.0")
        metadata.commandLine = ["robotci", "run", "--shards", "\(shards)", "--retries", "2"]
        metadata.gitCommit = "0123456789abcdef0123456789abcdef01234567"
        metadata.gitBranch = "main"
        metadata.hostname = "ci-1"
        return metadata
    }

    /// One test per outcome (plus a hostile one); the flaky one has artifacts under `attachments/`.
    static func mixedRun() -> RunResult {
        func attempt(_ n: Int, _ o: AttemptOutcome, start: Double, shard: Int, batch: Int, duration: Double = 1.5,
                     failures: [FailureMessage] = [], output: String = "", artifacts: [Artifact] = []) -> Attempt {
            Attempt(number: n, outcome: o, duration: duration, start: start, placement: .init(shard: shard, batch: batch),
                    evidence: .init(failures: failures, output: output, artifacts: artifacts))
        }
        let file = "/ci/work/Tests/ShopTests/CheckoutTests.swift"
        let refundFailure = FailureMessage(file: file, line: 42, message: refundMessage)
        let couponDir = "attachments/ShopTests.CheckoutTests.testCoupon/1"
        let tests: [TestRecord] = [
            TestRecord(id: TestID("ShopTests.CheckoutTests/testPay"), attempts: [
                attempt(1, .passed, start: 0, shard: 0, batch: 0, duration: 2.0, output: "paid\n")]),
            TestRecord(id: refund, attempts: [
                attempt(1, .failed, start: 2, shard: 0, batch: 0, failures: [refundFailure], output: "refund try 1\n",
                        artifacts: [Artifact(kind: .log, path: "attachments/refund/1/output.log")]),
                attempt(2, .failed, start: 5, shard: 1, batch: 3, failures: [refundFailure], output: "refund try 2\n"),
                attempt(3, .failed, start: 7, shard: 2, batch: 4, failures: [refundFailure], output: "refund try 3\n"),
            ]),
            TestRecord(id: coupon, attempts: [
                attempt(1, .failed, start: 3.5, shard: 0, batch: 0,
                        failures: [FailureMessage(file: file, line: 77, message: couponMessage)],
                        output: String(repeating: "noise line\n", count: 2000) + "the end of coupon output\n",
                        artifacts: [
                            Artifact(kind: .screenshot, path: "\(couponDir)/screenshot.png"),
                            Artifact(kind: .steps, path: "\(couponDir)/steps.json"),
                            Artifact(kind: .mock, path: "\(couponDir)/mock-requests.json"),
                            Artifact(kind: .accessibility, path: "\(couponDir)/accessibility.txt"),
                            Artifact(kind: .log, path: "\(couponDir)/output.log"),
                        ]),
                attempt(2, .passed, start: 5, shard: 2, batch: 4, output: "coupon ok\n"),
            ]),
            TestRecord(id: TestID("ShopTests.LoginTests/testLogin"), attempts: [
                attempt(1, .passed, start: 0, shard: 1, batch: 1, duration: 0.8)]),
            TestRecord(id: TestID("ShopTests.LoginTests/testLogout"), attempts: [
                attempt(1, .skipped, start: 0.8, shard: 1, batch: 1, duration: 0.01)]),
            TestRecord(id: TestID("ShopTests.LoginTests/testSlow"), attempts: [
                attempt(1, .timedOut, start: 0.9, shard: 1, batch: 1, duration: 3,
                        failures: [FailureMessage(message: "timed out after 3 s (no output); process group killed")]),
                attempt(2, .timedOut, start: 6.5, shard: 0, batch: 5, duration: 3,
                        failures: [FailureMessage(message: "timed out after 3 s (no output); process group killed")]),
            ]),
            TestRecord(id: TestID("ShopTests.LoginTests/testCrash"), attempts: [
                attempt(1, .crashed, start: 0, shard: 2, batch: 2, duration: 0.5,
                        failures: [FailureMessage(message: "crashed: signal 11 (segmentation fault)")],
                        output: "Fatal error: Unexpectedly found nil\n"),
            ]),
            TestRecord(id: TestID("ShopTests.LoginTests/testQuarantined"), attempts: [
                attempt(1, .failed, start: 0.5, shard: 2, batch: 2, duration: 0.4,
                        failures: [FailureMessage(message: "known broken")]),
            ], quarantined: true),
            TestRecord(id: hostileID, attempts: [
                attempt(1, .failed, start: 1, shard: 2, batch: 2, duration: 0.2,
                        failures: [FailureMessage(file: "/x/\(imgPayload).swift", line: 1, message: "\(scriptPayload) ]]> \(imgPayload) \(controls)")],
                        output: "\(scriptPayload)\n]]>\n<!-- <script>\n\(imgPayload)\n\(controls)\n",
                        artifacts: [Artifact(kind: .screenshot, path: "javascript:document.body.setAttribute('data-xss','href')"),
                                    Artifact(kind: .accessibility, path: "../outside.txt")]),
            ]),
        ]
        let batches = [
            BatchRecord(id: 0, shard: 0, start: 0, end: 5, tests: [TestID("ShopTests.CheckoutTests/testPay"), refund, coupon], termination: "exit 1"),
            BatchRecord(id: 1, shard: 1, start: 0, end: 3.9, tests: [], termination: "killed (timeout)"),
            BatchRecord(id: 2, shard: 2, start: 0, end: 1.2, tests: [], termination: "signal 11"),
            BatchRecord(id: 3, shard: 1, start: 5, end: 6.5, tests: [refund], termination: "exit 1"),
            BatchRecord(id: 4, shard: 2, start: 5, end: 8.5, tests: [coupon, refund], termination: "exit 1"),
            BatchRecord(id: 5, shard: 0, start: 6.5, end: 9.5, tests: [], termination: "killed (timeout)"),
        ]
        let sorted = tests.sorted { $0.id < $1.id }
        return RunResult(metadata: metadata(wall: 10, shards: 3), tests: sorted, batches: batches)
    }

    /// Writes the flaky test's artifacts (and a file outside the report) for `mixedRun()`.
    static func writeArtifacts(into dir: URL) throws {
        let couponDir = dir.appendingPathComponent("attachments/ShopTests.CheckoutTests.testCoupon/1")
        try FileManager.default.createDirectory(at: couponDir, withIntermediateDirectories: true)
        try pngPixel.write(to: couponDir.appendingPathComponent("screenshot.png"))
        let steps = """
            [{"robot":"CheckoutRobot","method":"tapCoupon","duration":0.25,"file":"/ci/CheckoutRobot.swift","line":12,"status":"passed"},
             {"robot":"CheckoutRobot","method":"typeCoupon","duration":5.0,"file":"/ci/CheckoutRobot.swift","line":20,"status":"failed","message":"\(jsonEscaped(imgPayload))"}]
            """
        try Data(steps.utf8).write(to: couponDir.appendingPathComponent("steps.json"))
        let mock = """
            [{"method":"GET","path":"/api/cart","query":"id=1","headers":{"Accept":"application/json","authorization":"Bearer FIXTURE-TOKEN-9","Cookie":"sid=FIXTURE-COOKIE"},"body":"","time":1.25,"matchedRoute":"/api/cart","status":200,"error":null},
             {"method":"POST","path":"/api/coupon","query":"","headers":{},"body":"\(jsonEscaped(scriptPayload))","time":3.5,"matchedRoute":null,"status":404,"error":"no route"}]
            """
        try Data(mock.utf8).write(to: couponDir.appendingPathComponent("mock-requests.json"))
        try Data("window 'Shop'\n  button 'Pay' id=pay\n  textField 'Coupon'\n".utf8)
            .write(to: couponDir.appendingPathComponent("accessibility.txt"))
        try Data("full coupon log\n".utf8).write(to: couponDir.appendingPathComponent("output.log"))
        try Data("SECRET OUTSIDE".utf8).write(to: dir.deletingLastPathComponent().appendingPathComponent("outside.txt"))
    }

    static func jsonEscaped(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// A 1×1 PNG.
    static let pngPixel = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
        0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0x00,
        0x00, 0x03, 0x01, 0x01, 0x00, 0xC9, 0xFE, 0x92, 0xEF, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
        0x44, 0xAE, 0x42, 0x60, 0x82,
    ])

    /// `count` tests on `shards` workers. `worstCase`: every test has 3 failing attempts with
    /// 8 KB of output and long messages; otherwise ~5% flaky, ~1% failed, the rest passed.
    static func largeRun(count: Int = 10_000, shards: Int = 8, worstCase: Bool = false) -> RunResult {
        var rng = SplitMix(seed: 42)
        var clock = [Double](repeating: 0, count: shards)
        var tests: [TestRecord] = []
        var batches: [BatchRecord] = []
        var batchTests: [[TestID]] = Array(repeating: [], count: shards)
        var batchStart = [Double](repeating: 0, count: shards)
        let noise = String(repeating: "2024-01-01 12:00:00.000 step ok: tapped element 'button' in view hierarchy\n", count: 110)
        tests.reserveCapacity(count)
        for i in 0..<count {
            let id = TestID("BigSuite.Feature\(i / 25)Tests/test\(i % 25)_scenarioNumber\(i)")
            let roll = rng.next() % 1000
            let kinds: [AttemptOutcome]
            if worstCase { kinds = [.failed, .failed, .failed] }
            else if roll < 50 { kinds = [.failed, .passed] }
            else if roll < 60 { kinds = [.failed, .failed, .failed] }
            else if roll < 65 { kinds = [.skipped] }
            else { kinds = [.passed] }
            var attempts: [Attempt] = []
            for (n, kind) in kinds.enumerated() {
                let w = Int(rng.next() % UInt64(shards))
                let duration = 0.2 + Double(rng.next() % 4000) / 1000
                let failing = kind.isFailure
                attempts.append(Attempt(
                    number: n + 1, outcome: kind, duration: duration, start: clock[w],
                    placement: .init(shard: w, batch: batches.count + w),
                    evidence: .init(
                        failures: failing ? [FailureMessage(
                            file: "/ci/work/Tests/BigSuite/Feature\(i / 25)Tests.swift", line: 10 + i % 90,
                            message: "XCTAssertTrue failed - element 'checkout.button.\(i)' not hittable " + String(repeating: "detail ", count: worstCase ? 150 : 10))] : [],
                        output: failing || worstCase ? noise : "Test Case 'test\(i % 25)' passed (\(duration) seconds).\n",
                        artifacts: failing ? [Artifact(kind: .log, path: "attachments/t\(i)/\(n + 1)/output.log"),
                                              Artifact(kind: .screenshot, path: "attachments/t\(i)/\(n + 1)/screenshot.png")] : [])))
                clock[w] += duration
                batchTests[w].append(id)
                if batchTests[w].count == 40 {
                    batches.append(BatchRecord(id: batches.count, shard: w, start: batchStart[w], end: clock[w],
                                               tests: batchTests[w], termination: "exit 0"))
                    batchTests[w] = []
                    clock[w] += 0.3
                    batchStart[w] = clock[w]
                }
            }
            tests.append(TestRecord(id: id, attempts: attempts))
        }
        for w in 0..<shards where !batchTests[w].isEmpty {
            batches.append(BatchRecord(id: batches.count, shard: w, start: batchStart[w], end: clock[w],
                                       tests: batchTests[w], termination: "exit 0"))
        }
        return RunResult(metadata: metadata(wall: clock.max() ?? 0, shards: shards), tests: tests, batches: batches)
    }
}

/// Deterministic generator so large fixtures are the same every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
