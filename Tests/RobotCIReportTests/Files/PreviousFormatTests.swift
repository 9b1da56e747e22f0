import Foundation
import RobotCICore
import XCTest

@testable import RobotCIReport

/// Results format v2 wrote a test's id as text, a repetition as ` (repeat k of n)` at its end.
/// Only `PreviousFormat` parses that text, and only when the run says it repeated its tests: a
/// test whose own name ends like a repetition stays that test.
final class PreviousFormatTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-previous-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// The report folders the previous robotci wrote (Tests/Fixtures/Identity/README.md).
    private func previous(_ folder: String, _ file: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Identity/previous-version/\(folder)/\(file)")
    }

    func testTheSuffixIsParsedOnlyWhereItIsWhole() {
        let parsed = PreviousFormat.repetition(in: "M.C/x (repeat 2 of 5)")
        XCTAssertEqual(parsed?.test, "M.C/x")
        XCTAssertEqual(parsed?.repetition, TestID.Repetition(index: 2, count: 5))
        // The last suffix is the repetition; the one before it is part of the test's name.
        XCTAssertEqual(PreviousFormat.repetition(in: "M.C/testX(repeat 1 of 2) (repeat 1 of 2)")?.test, "M.C/testX(repeat 1 of 2)")
        for text in [
            "M.C/testX(repeat 1 of 2)", " (repeat 1 of 2)", "M.C/x (repeat 0 of 2)", "M.C/x (repeat 3 of 2)", "M.C/x (repeat -1 of 2)",
            "M.C/x (repeat 1 of 2) ", "M.C/x (repeat 1  of 2)", "M.C/x (repeat one of 2)", "M.C/x (repeat ١ of ٢)",
            "M.C/x (repeat 1 of 99999999999999999999999)", "M.C/x (repeat 1 of 2)(repeat 1 of 2",
        ] {
            XCTAssertNil(PreviousFormat.repetition(in: text), text)
        }
    }

    func testOnlyTheTwoFormatsThatWroteTextAreUpgraded() {
        XCTAssertTrue(PreviousFormat.writesTextIDs("robotci-results-v2"))
        XCTAssertTrue(PreviousFormat.writesTextIDs("robotci-results-v1"))
        XCTAssertFalse(PreviousFormat.writesTextIDs(RunResult.formatName))
        XCTAssertFalse(PreviousFormat.writesTextIDs("robotci-results-v9"))
        XCTAssertFalse(PreviousFormat.writesTextIDs("something-else-v2"))
        XCTAssertFalse(PreviousFormat.writesTextIDs(nil))
    }

    /// A run that did not repeat: `testX(repeat 1 of 2)` is the test's own name.
    func testAPlainRunKeepsNamesThatReadLikeRepetitions() throws {
        for file in ["results.json", "results.jsonl"] {
            let result = try ReportReader.load(previous("plain", file)).result
            XCTAssertEqual(result.tests.map(\.id.test), ["suite.Names::testX(repeat 1 of 2)", "suite.Names::test_b", "suite.Names::test_d"], file)
            XCTAssertTrue(result.tests.allSatisfy { $0.id.repetition == nil }, file)
            XCTAssertEqual(result.tests.first { $0.id.test == "suite.Names::test_b" }?.outcome, .failed, file)
            XCTAssertTrue(result.accounting.isComplete, "\(file): \(result.accounting.description)")
        }
    }

    /// A run with `--repeat-each 2`: the last suffix is the repetition, what is before it the test.
    func testARepeatedRunTypesItsRepetitions() throws {
        for file in ["results.json", "results.jsonl"] {
            let result = try ReportReader.load(previous("repeat", file)).result
            XCTAssertEqual(result.tests.count, 6, file)
            XCTAssertTrue(result.tests.allSatisfy { $0.id.repetition == TestID.Repetition(index: 1, count: 2) }, file)
            XCTAssertTrue(result.tests.contains { $0.id.test == "suite.Names::testX(repeat 1 of 2)" }, file)
            XCTAssertTrue(result.tests.contains { $0.id.test == "suite.Names::test_y (repeat 1 of 2)" }, file)
            XCTAssertEqual(Set(result.plan?.tests ?? []), Set(result.tests.map(\.id)), "\(file): the plan is upgraded like the results")
            XCTAssertTrue(result.accounting.isComplete, "\(file): \(result.accounting.description)")
        }
    }

    /// A v2 journal cut before its `finished` line does not say whether the run repeated: it
    /// did when every planned id reads as a repetition, and not when one does not.
    func testACutJournalGuessesFromItsPlan() throws {
        let whole = try String(contentsOf: previous("repeat", "results.jsonl"), encoding: .utf8)
        let lines = whole.split(separator: "\n").filter { !$0.contains(#""type":"finished""#) }
        let cut = dir.appendingPathComponent("cut.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: cut, atomically: true, encoding: .utf8)
        let repeated = try ReportReader.load(cut).result
        XCTAssertTrue(repeated.tests.allSatisfy { $0.id.repetition != nil }, "\(repeated.tests.map(\.id))")

        let plain = try String(contentsOf: previous("plain", "results.jsonl"), encoding: .utf8)
        let plainCut = dir.appendingPathComponent("plain-cut.jsonl")
        try (plain.split(separator: "\n").filter { !$0.contains(#""type":"finished""#) }.joined(separator: "\n") + "\n")
            .write(to: plainCut, atomically: true, encoding: .utf8)
        let kept = try ReportReader.load(plainCut).result
        XCTAssertTrue(kept.tests.allSatisfy { $0.id.repetition == nil }, "\(kept.tests.map(\.id))")
    }

    /// A v2 id is text, a v3 id an object: each refuses the other's shape with a clear error.
    func testAnIDOfTheWrongShapeIsRefused() throws {
        let v3 = try String(contentsOf: previous("plain", "results.json"), encoding: .utf8)
            .replacingOccurrences(of: "robotci-results-v2", with: RunResult.formatName)
        let url = dir.appendingPathComponent("results.json")
        try v3.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ReportReader.load(url)) { error in
            XCTAssertTrue("\(error)".contains("invalid"), "\(error)")
        }
    }
}
