import Foundation
import RobotCICore
import XCTest

@testable import RobotCIReport

/// `JUnitWriter` on its own (the end-to-end tests read its files too): the element tree,
/// the counts, what each verdict becomes, and hostile text.
final class JUnitWriterTests: XCTestCase {
    private func attempt(_ n: Int, _ o: AttemptOutcome, message: String? = nil, file: String? = nil, line: Int? = nil,
                         output: String = "", shard: Int = 0) -> Attempt {
        Attempt(number: n, outcome: o, duration: 1.25, start: 0, placement: .init(shard: shard, batch: 0),
                evidence: .init(failures: message.map { [FailureMessage(file: file, line: line, message: $0)] } ?? [], output: output))
    }

    private func render(_ tests: [TestRecord]) throws -> (data: Data, tree: XMLTree, root: XMLNodeRef) {
        let run = RunResult(metadata: ReportFixtures.metadata(wall: 12.5, shards: 2), tests: tests, batches: [])
        let data = try JUnitWriter.render(run)
        let tree = try XMLTree(data: data, name: "junit.xml")
        return (data, tree, try XCTUnwrap(tree.root))
    }

    private func testcase(_ root: XMLNodeRef, _ name: String) throws -> XMLNodeRef {
        let cases = root.children.flatMap(\.children).filter { $0.name == "testcase" && $0.attribute("name") == name }
        XCTAssertEqual(cases.count, 1, name)
        return try XCTUnwrap(cases.first)
    }

    func testOneSuitePerClassWithItsCounts() throws {
        let (_, tree, root) = try render([
            TestRecord(id: TestID("B.Login/testB"), attempts: [attempt(1, .passed)]),
            TestRecord(id: TestID("A.Cart/testFail"), attempts: [attempt(1, .failed, message: "no")]),
            TestRecord(id: TestID("A.Cart/testSkip"), attempts: [attempt(1, .skipped)]),
            TestRecord(id: TestID("A.Cart/testGone"), attempts: [], reason: "its batch died"),
            TestRecord(id: TestID("A.Cart/testQ"), attempts: [attempt(1, .failed, message: "known")], quarantined: true),
        ])
        withExtendedLifetime(tree) {
            XCTAssertEqual(root.name, "testsuites")
            XCTAssertEqual(root.attribute("name"), "robotci")
            XCTAssertEqual(root.attribute("tests"), "5")
            XCTAssertEqual(root.attribute("failures"), "1", "a not-run test is an error, not a failure")
            XCTAssertEqual(root.attribute("errors"), "1")
            XCTAssertEqual(root.attribute("skipped"), "2", "skipped + quarantined")
            XCTAssertEqual(root.attribute("time"), "12.500")
            XCTAssertEqual(root.attribute("timestamp"), "2023-11-14T22:13:20Z")
            let suites = root.children
            XCTAssertEqual(suites.map { $0.attribute("name") }, ["A.Cart", "B.Login"], "sorted by class")
            XCTAssertEqual(suites.map { $0.attribute("tests") }, ["4", "1"])
            XCTAssertEqual(suites[0].attribute("failures"), "1")
            XCTAssertEqual(suites[0].attribute("errors"), "1")
            XCTAssertEqual(suites[0].attribute("skipped"), "2")
            XCTAssertEqual(suites[0].attribute("hostname"), "ci-1")
            XCTAssertEqual(suites[1].children.map { $0.attribute("classname") }, ["B.Login"])
        }
    }

    func testEachVerdictsElements() throws {
        let (_, tree, root) = try render([
            TestRecord(id: TestID("C/testPass"), attempts: [attempt(1, .passed, output: "ok\n")]),
            TestRecord(id: TestID("C/testFail"), attempts: [
                attempt(1, .failed, message: "first", file: "/t/C.swift", line: 7),
                attempt(2, .failed, message: "second", output: "retry out", shard: 1),
            ]),
            TestRecord(id: TestID("C/testFlaky"), attempts: [attempt(1, .timedOut, message: "hung"), attempt(2, .passed)]),
            TestRecord(id: TestID("C/testSkip"), attempts: [attempt(1, .skipped, message: "not on Linux")]),
            TestRecord(id: TestID("C/testQ"), attempts: [attempt(1, .crashed, message: "signal 11")], quarantined: true),
            TestRecord(id: TestID("C/testGone"), attempts: [], reason: "the run stopped early"),
        ])
        try withExtendedLifetime(tree) {
            let pass = try testcase(root, "testPass")
            XCTAssertEqual(pass.children.map(\.name), ["system-out"])
            XCTAssertEqual(pass.attribute("time"), "1.250")

            let fail = try testcase(root, "testFail")
            XCTAssertEqual(fail.children.map(\.name), ["failure", "rerunFailure", "system-out"])
            XCTAssertEqual(fail.children[0].attribute("message"), "first")
            XCTAssertEqual(fail.children[0].attribute("type"), "failed")
            XCTAssertTrue(fail.children[0].text.hasPrefix("/t/C.swift:7: first\nattempt 1 on shard 0, 1.250 s"), fail.children[0].text)
            XCTAssertEqual(fail.children[1].children.map(\.name), ["stackTrace", "system-out"], "a rerun carries its own output")
            XCTAssertEqual(fail.children[1].children[1].text, "retry out")

            let flaky = try testcase(root, "testFlaky")
            XCTAssertEqual(flaky.children.map(\.name), ["flakyFailure"], "counts as passed, the failure kept")
            XCTAssertEqual(flaky.children[0].attribute("type"), "timedOut")

            let skip = try testcase(root, "testSkip")
            XCTAssertEqual(skip.children.map(\.name), ["skipped"])
            XCTAssertEqual(skip.children[0].attribute("message"), "not on Linux")

            let quarantined = try testcase(root, "testQ")
            XCTAssertEqual(quarantined.children.map(\.name), ["skipped"])
            XCTAssertEqual(quarantined.children[0].attribute("message"), "quarantined: crashed — signal 11")

            let gone = try testcase(root, "testGone")
            XCTAssertEqual(gone.children.map(\.name), ["error"])
            XCTAssertEqual(gone.children[0].attribute("type"), "notRun")
            XCTAssertEqual(gone.children[0].attribute("message"), "not run: the run stopped early")
            XCTAssertTrue(gone.children[0].text.contains("planned, but no attempt of this test has a result"))
        }
    }

    func testHostileTextIsEscapedAndControlCharactersMadeVisible() throws {
        let nasty = "a<b>&\"c\" ]]> </testcase>\u{1B}[31m\u{0}\u{7}end"
        let visible = "a<b>&\"c\" ]]> </testcase>\\u{1b}[31m\\u{0}\\u{7}end"
        let (data, tree, root) = try render([
            TestRecord(id: TestID("C/test<&\"\u{1B}"), attempts: [attempt(1, .failed, message: nasty, output: nasty)]),
        ])
        let xml = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(xml.contains("&lt;/testcase&gt;"), "markup in text stays text")
        XCTAssertEqual(xml.components(separatedBy: "<testcase ").count, 2)
        XCTAssertTrue(xml.contains("a&lt;b&gt;&amp;"), xml)
        XCTAssertFalse(xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        try withExtendedLifetime(tree) {
            let test = try testcase(root, "test<&\"\\u{1b}")
            XCTAssertEqual(test.children.first?.attribute("message"), visible)
            XCTAssertEqual(test.children.last?.text, visible)
        }
        // What robotci writes, it reads back (merge reads partitions' junit.xml).
        let back = try JUnitReader.parse(data, name: "junit.xml", machine: nil)
        XCTAssertEqual(back.map(\.outcome), [.failed])
    }
}
