import Foundation
import RobotCICore
import Testing

@Suite struct BatchEndTests {
    static let named: [(BatchEnd, String)] = [
        (.exited(0), "exit 0"), (.exited(1), "exit 1"), (.exited(-1), "exit -1"), (.signaled(9), "signal 9"),
        (.testTimeout(seconds: 30), "killed (test timeout 30 s)"), (.batchTimeout(seconds: 125), "killed (batch timeout 125 s)"),
        (.stoppedEarly, "killed (run stopped early)"), (.interrupted, "killed (interrupted)"), (.spawnFailed, "spawn failed"),
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

    @Test func isStoredAsItsText() throws {
        let record = BatchRecord(id: 3, shard: 1, start: 0, end: 1, tests: [], termination: .testTimeout(seconds: 60))
        let json = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        #expect(json.contains(#""termination":"killed (test timeout 60 s)""#))
        #expect(try JSONDecoder().decode(BatchRecord.self, from: Data(json.utf8)) == record)
        let old = #"{"id":1,"worker":0,"start":0,"end":1,"tests":[],"termination":"killed (timeout)"}"#
        #expect(try JSONDecoder().decode(BatchRecord.self, from: Data(old.utf8)).termination == .other("killed (timeout)"))
    }

    @Test func onlyExitZeroIsClean() {
        #expect(BatchEnd.exited(0).isCleanExit)
        #expect(!BatchEnd.exited(1).isCleanExit && !BatchEnd.signaled(0).isCleanExit && !BatchEnd.other("exit 0 ").isCleanExit)
    }
}
