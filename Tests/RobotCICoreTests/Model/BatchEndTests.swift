import Foundation
import RobotCICore
import Testing

@Suite struct BatchEndTests {
    static let named: [(BatchEnd, String)] = [
        (.exited(0), "exit 0"), (.exited(1), "exit 1"), (.exited(-1), "exit -1"), (.signaled(9), "signal 9"),
        (.testTimeout(seconds: 30), "killed (test timeout 30 s)"), (.batchTimeout(seconds: 125), "killed (batch timeout 125 s)"),
        (.stopped(.signal), "killed (interrupted)"), (.spawnFailed, "spawn failed"),
        (.stopped(.maxFailures(3)), "killed (run stopped: --max-failures 3 reached (3 tests failed for good))"),
        (.stopped(.described("m2 stopped the run")), "killed (run stopped: m2 stopped the run)"),
    ]

    @Test func describesEachEndAsReportsAlwaysHave() {
        for (end, text) in Self.named {
            #expect(end.description == text)
            #expect(BatchEnd(text) == end, "\(text) reads back")
        }
    }

    @Test func keepsATextItDoesNotKnow() {
        for text in ["killed (timeout)", "", "exit", "exit x", "signal 9 ", "killed (test timeout s)"] {
            #expect(BatchEnd(text) == .other(text))
            #expect(BatchEnd(text).description == text)
        }
    }

    /// Stored as data, one key naming the end; every end round-trips.
    @Test func isStoredAsData() throws {
        let record = BatchRecord(id: 3, shard: 1, start: 0, end: 1, tests: [], termination: .testTimeout(seconds: 60))
        let json = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        #expect(json.contains(#""termination":{"testTimeout":60}"#))
        #expect(try JSONDecoder().decode(BatchRecord.self, from: Data(json.utf8)) == record)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(BatchEnd.stopped(.maxFailures(2))), as: UTF8.self) == #"{"stopped":{"by":"maxFailures","limit":2}}"#)
        for end in Self.named.map(\.0) + [.other("killed (timeout)")] {
            #expect(try JSONDecoder().decode(BatchEnd.self, from: try JSONEncoder().encode(end)) == end)
        }
    }

    /// Reports written before ends were data stored the text: it reads back.
    @Test func readsTheTextOlderReportsStored() throws {
        let old = #"{"id":1,"worker":0,"start":0,"end":1,"tests":[],"termination":"killed (timeout)"}"#
        #expect(try JSONDecoder().decode(BatchRecord.self, from: Data(old.utf8)).termination == .other("killed (timeout)"))
        let stopped = #"{"id":1,"worker":0,"start":0,"end":1,"tests":[],"termination":"killed (run stopped early)"}"#
        #expect(try JSONDecoder().decode(BatchRecord.self, from: Data(stopped.utf8)).termination == .stopped(.described("the run stopped early")))
    }

    /// Hostile data: two keys, no key, an unknown stop: an error naming what is wrong.
    @Test func refusesAnEndThatNamesNoneOrTwo() {
        for bad in [#"{}"#, #"{"exit":0,"signal":9}"#, #"{"stopped":{"by":"moon"}}"#, #"{"exit":"zero"}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(BatchEnd.self, from: Data(bad.utf8)) }
        }
    }

    @Test func onlyExitZeroIsClean() {
        #expect(BatchEnd.exited(0).isCleanExit)
        #expect(!BatchEnd.exited(1).isCleanExit && !BatchEnd.signaled(0).isCleanExit && !BatchEnd.other("exit 0 ").isCleanExit)
    }
}
