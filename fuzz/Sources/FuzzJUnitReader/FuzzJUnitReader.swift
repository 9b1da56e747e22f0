// Fuzzes JUnitReader (libxml2 tree API), what `robotci merge` uses for foreign JUnit XML.
//
// Invariants beyond "no crash": a rejected file is rejected with a message naming it; a
// read file gives records whose durations are finite and not negative and that encode as
// JSON (results.json); and writing the records with JUnitWriter and reading them back
// gives the same tests, verdicts, attempt outcomes, failure messages and output (for ids
// without "::", see below).
import Foundation
import FuzzSupport
@testable import RobotCICore
@testable import RobotCIReport

private let encoder: JSONEncoder = {
    let e = JSONEncoder()
    e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return e
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJUnitReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Data(bytes(data, size))
    let records: [TestRecord]
    do {
        records = try JUnitReader.parse(input, name: "fuzz.xml", machine: nil)
    } catch let error as XMLError {
        require(error.message.hasPrefix("fuzz.xml: "), "error does not name the file: \(error.message)")
        return 0
    } catch {
        require(false, "unexpected error type \(error)")
        return 0
    }
    for record in records {
        require(!record.attempts.isEmpty, "\(record.id) has no attempts")
        for (index, attempt) in record.attempts.enumerated() {
            require(attempt.number == index + 1, "\(record.id) attempt numbers \(record.attempts.map(\.number))")
            require(attempt.duration.isFinite && attempt.duration >= 0, "\(record.id) duration \(attempt.duration)")
            require(attempt.start.isFinite && attempt.start >= 0, "\(record.id) start \(attempt.start)")
        }
    }
    do {
        _ = try encoder.encode(records)
    } catch {
        require(false, "records do not encode as JSON: \(error)")
    }

    // Round trip through the writer: every id, `::` included (TestID(junitClassname:name:) picks
    // the id that splits back into the classname and name it came from; see fuzz/README.md).
    let kept = records
    let metadata = RunMetadata(runID: "fuzz", startedAt: 0, wallTime: 1, shards: 1, retries: 0, robotciVersion: "fuzz")
    let written: Data
    do {
        written = try JUnitWriter.render(RunResult(metadata: metadata, tests: kept, batches: []))
    } catch {
        require(false, "JUnitWriter cannot write what JUnitReader read: \(error)")
        return 0
    }
    let reread: [TestRecord]
    do {
        reread = try JUnitReader.parse(written, name: "written.xml", machine: nil)
    } catch {
        require(false, "JUnitReader cannot read what JUnitWriter wrote: \(error)\n\(String(decoding: written, as: UTF8.self))")
        return 0
    }
    let before = kept.map(summary).sorted()
    let after = reread.map(summary).sorted()
    require(before == after, "round trip changed the tests:\n\(before)\n---\n\(after)")
    return 0
}

/// What must survive write + read: the id, verdict, each attempt's outcome and failure
/// messages, and the last attempt's output.
private func summary(_ r: TestRecord) -> String {
    let attempts = r.attempts.map { a in "\(a.outcome.rawValue)\(a.failures.map(\.message))" }
    return "\(r.id.description.debugDescription) \(r.outcome.rawValue) \(attempts) \(r.attempts.last?.output.debugDescription ?? "")"
}
