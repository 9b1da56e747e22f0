@testable import RobotCIRunner
import RobotCICore
import XCTest

/// Tokens whose shape gives them away are masked even when no environment variable holds
/// them: a test that prints a token it read from a file, or one pasted into a fixture
/// (issue 39). Made up here from their published formats.
final class TokenShapeTests: XCTestCase {
    private let redactor = SecretRedactor(environment: [:])
    private let tokens = [
        "ghp_" + String(repeating: "aB3", count: 12),
        "gho_" + String(repeating: "Zx9", count: 12),
        "github_pat_11ABCDEFG0" + String(repeating: "a1_B", count: 15),
        "AKIAIOSFODNN7EXAMPLE",
        "ASIAY34FZKBOKMUTVV7A",
        "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "xoxp-12345-67890-abcdef123456",
        "glpat-" + "xY_z-" + String(repeating: "Ab1", count: 6),
    ]

    func testWellKnownTokenShapesAreMaskedWithoutBeingConfigured() {
        for token in tokens {
            for text in [token, "token=\(token)", "\"\(token)\"", "Authorization: Bearer \(token)\n", "[\(token)]"] {
                let masked = redactor.redact(text)
                XCTAssertFalse(masked.contains(token), "\(token) in \(masked)")
                XCTAssertTrue(masked.contains(URLCredentials.mask), masked)
            }
        }
    }

    func testLookAlikesStay() {
        for text in ["ghp_short", "AKIA is a prefix", "MAKIAIOSFODNN7EXAMPLEX", "xoxb-", "glpat-tooshort",
                     "github_pat_", "the ghp_ folder", "TAKIAIOSFODNN7EXAMPLE"] {
            XCTAssertEqual(redactor.redact(text), text)
        }
    }

    func testAttemptsAreCovered() {
        let token = tokens[0]
        let attempt = Attempt(number: 1, outcome: .failed, duration: 0, start: 0, placement: .init(shard: 0, batch: 0),
                              evidence: .init(failures: [FailureMessage(message: "got \(tokens[3])")], output: "printed \(token)"))
        let masked = redactor.redact(attempt)
        XCTAssertFalse(masked.output.contains(token), masked.output)
        XCTAssertFalse(masked.failures[0].message.contains(tokens[3]), masked.failures[0].message)
    }
}
