@testable import RobotCIRunner
import RobotCICore
import XCTest

final class SecretRedactorTests: XCTestCase {
    func testSecretLookingNamesAreMaskedOthersAreNot() {
        let r = SecretRedactor(environment: [
            "GITHUB_TOKEN": "ghp_abcdefghijkl", "DB_PASSWORD": "hunter22", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI",
            "SIGNING_KEY": "key-material-1", "SHORT_TOKEN": "abc", "HOME": "/root", "PATH": "/usr/bin:/bin",
        ])
        XCTAssertEqual(r.redact("token ghp_abcdefghijkl, pw hunter22, aws wJalrXUtnFEMI, key key-material-1"),
                       "token ***, pw ***, aws ***, key ***")
        XCTAssertEqual(r.redact("abc at /root in /usr/bin:/bin"), "abc at /root in /usr/bin:/bin", "short and non-secret values stay")
    }

    func testLongerSecretIsMaskedWholeAndAttemptsAreCovered() {
        let r = SecretRedactor(environment: ["A_TOKEN": "secret-1", "B_TOKEN": "secret-1-and-more"])
        XCTAssertEqual(r.redact("x secret-1-and-more y secret-1"), "x *** y ***")
        let attempt = Attempt(number: 1, outcome: .failed, duration: 0, start: 0, shard: 0, batch: 0,
                              failures: [FailureMessage(message: "env: secret-1")], output: "printed secret-1-and-more")
        let masked = r.redact(attempt)
        XCTAssertEqual(masked.output, "printed ***")
        XCTAssertEqual(masked.failures.first?.message, "env: ***")
    }

    func testNoSecretsLeavesTextUntouched() {
        XCTAssertTrue(SecretRedactor(environment: ["HOME": "/root"]).isEmpty)
    }
}
