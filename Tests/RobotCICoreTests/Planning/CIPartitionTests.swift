import RobotCICore
import XCTest

/// Each CI system's parallel-job variables map to the same 1-based `K/N`.
final class CIPartitionTests: XCTestCase {
    private func detect(_ env: [String: String], count: Int? = nil) throws -> String? {
        try CIPartition.detect(env, partitionCount: count)?.partition.description
    }

    func testEachCISystemIsReadWithItsOwnBase() throws {
        XCTAssertEqual(try detect(["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]), "2/3")
        XCTAssertEqual(try detect(["BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "3"]), "2/3")
        XCTAssertEqual(try detect(["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "3"]), "2/3")
        XCTAssertEqual(try detect(["TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "3"]), "2/3")
        XCTAssertEqual(try detect(["JOB_COMPLETION_INDEX": "1"], count: 3), "2/3")
        XCTAssertNil(try detect(["CI": "true"]))
    }

    func testSourceIsNamed() throws {
        let d = try CIPartition.detect(["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "2"], partitionCount: nil)
        XCTAssertEqual(d?.source, "CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL (CircleCI, 0-based)")
    }

    func testBadValuesAreClearErrors() {
        XCTAssertThrowsError(try detect(["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"])) { e in
            XCTAssertTrue("\(e)".contains("CI_NODE_INDEX=0"), "\(e)")
        }
        XCTAssertThrowsError(try detect(["CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "3"]))
        XCTAssertThrowsError(try detect(["JOB_COMPLETION_INDEX": "1"])) { e in
            XCTAssertTrue("\(e)".contains("--partition-count"), "\(e)")
        }
        XCTAssertThrowsError(try detect(["JOB_COMPLETION_INDEX": "3"], count: 3))
    }
}
