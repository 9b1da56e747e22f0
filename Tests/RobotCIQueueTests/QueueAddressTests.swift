import RobotCIQueue
import XCTest

/// Passwords with the characters a URL reserves, as people paste them (issue 39).
final class QueueAddressTests: XCTestCase {
    func testUnencodedSlashQuestionMarkOrHashIsRefusedWithoutShowingThePassword() {
        for reserved in ["/", "?", "#"] {
            let text = "redis://ci:Pw\(reserved)secret-tail@127.0.0.1:6379/run-1"
            XCTAssertThrowsError(try QueueAddress(parsing: text), text) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("percent-encode") && message.contains("%2F") && message.contains("ROBOTCI_QUEUE_PASSWORD"), message)
                XCTAssertTrue(message.contains("redis://ci:***@127.0.0.1:6379/run-1"), message)
                XCTAssertFalse(message.contains("secret-tail"), message)
            }
        }
        XCTAssertThrowsError(try QueueAddress(parsing: "redis://:50%off-secret-tail@h/r")) { error in
            XCTAssertTrue("\(error)".contains("percent-encode"), "\(error)")
            XCTAssertFalse("\(error)".contains("secret-tail"), "\(error)")
        }
    }

    func testAtSignAndColonReadUnencodedAndEveryCharacterReadsEncoded() throws {
        XCTAssertEqual(try QueueAddress(parsing: "redis://:p@ss:w@rd@127.0.0.1:6379/r").password, "p@ss:w@rd")
        XCTAssertEqual(try QueueAddress(parsing: "redis://ci:p@ss@h:1/r").user, "ci")
        let address = try QueueAddress(parsing: "redis://:a%23b%3Fc%2Fd%40e%3Af%25g@h:1/r")
        XCTAssertEqual(address.password, "a#b?c/d@e:f%g")
        XCTAssertEqual(address.host, "h")
        XCTAssertEqual(address.description, "redis://:***@h:1/r")
    }
}
