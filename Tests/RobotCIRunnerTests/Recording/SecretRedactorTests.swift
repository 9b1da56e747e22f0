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
        XCTAssertEqual(r.redact("abcdef at /root in /usr/bin:/bin"), "abcdef at /root in /usr/bin:/bin",
                       "a short secret inside a word, and non-secret values, stay")
    }

    /// Before (issue 39): secrets under 6 characters were never masked.
    func testShortSecretsAreMaskedAsWholeWordsAndTooShortOnesAreNamed() {
        let r = SecretRedactor(environment: ["DB_PASS": "abc", "API_KEY": "k3y!x", "PIN_TOKEN": "42", "EMPTY_TOKEN": ""])
        XCTAssertEqual(r.redact("pw=abc; key k3y!x, 'abc'"), "pw=***; key ***, '***'")
        XCTAssertEqual(r.redact("abcdef xabc abc_1 k3y!xy"), "abcdef xabc abc_1 k3y!xy", "not inside a longer word")
        XCTAssertEqual(r.redact("attempt 42"), "attempt 42", "two characters cannot be masked without garbling output")
        XCTAssertEqual(r.unmaskable, ["PIN_TOKEN"], "named, so the run can warn; an empty value is no secret")
        XCTAssertFalse(r.isEmpty)
    }

    /// Before (issue 39): a token in a test id (a pytest parameter) reached every report file.
    func testTestIDsAreRenamedWithTheirSecretsMaskedEachKeepingANameOfItsOwn() {
        let a = "ghp_" + String(repeating: "A", count: 36), b = "ghp_" + String(repeating: "B", count: 36)
        let ids = [TestID("t.py::test_api[\(a)]"), TestID("t.py::test_api[\(b)]"), TestID("t.py::test_plain"),
                   TestID("t.py::test_api[ghp_***]")]
        let rename = SecretRedactor(environment: [:]).renaming(ids)
        let names = ids.map(rename)
        XCTAssertEqual(names.map(\.description), ["t.py::test_api[ghp_***]~2", "t.py::test_api[ghp_***]~3", "t.py::test_plain",
                                               "t.py::test_api[ghp_***]"])
        XCTAssertEqual(Set(names).count, ids.count, "no two tests share a name")
        let noSecrets = SecretRedactor(environment: [:]).renaming([TestID("a/b")])
        XCTAssertEqual(noSecrets(TestID("a/b")), TestID("a/b"))
    }

    func testLongerSecretIsMaskedWholeAndAttemptsAreCovered() {
        let r = SecretRedactor(environment: ["A_TOKEN": "secret-1", "B_TOKEN": "secret-1-and-more"])
        XCTAssertEqual(r.redact("x secret-1-and-more y secret-1"), "x *** y ***")
        let attempt = Attempt(number: 1, outcome: .failed, duration: 0, start: 0, placement: .init(shard: 0, batch: 0),
                              evidence: .init(failures: [FailureMessage(message: "env: secret-1")], output: "printed secret-1-and-more"))
        let masked = r.redact(attempt)
        XCTAssertEqual(masked.output, "printed ***")
        XCTAssertEqual(masked.failures.first?.message, "env: ***")
    }

    func testNoSecretsLeavesTextUntouched() {
        XCTAssertTrue(SecretRedactor(environment: ["HOME": "/root"]).isEmpty)
    }

    static let pem = """
        -----BEGIN PRIVATE KEY-----
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj
        MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu
        NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ
        -----END PRIVATE KEY-----
        """

    /// Before: batch logs were masked line by line against the whole value, so a multi-line
    /// secret printed as it is leaked every line; escaped forms leaked whole.
    func testMultiLineSecretIsMaskedWholeLineByLineAndEscaped() throws {
        let r = SecretRedactor(environment: ["SIGNING_KEY": Self.pem])
        XCTAssertEqual(r.redact("key:\n\(Self.pem)\nend"), "key:\n***\nend")
        for line in Self.pem.split(separator: "\n") where line.count >= 16 {
            XCTAssertFalse(r.redact(String(line)).contains(line), "each line alone (a batch log line): \(line)")
        }
        // os.environ printed as a Python dict, JSON-encoded (JSONSerialization writes `\/`).
        let repr = "environ({'SIGNING_KEY': '" + Self.pem.replacingOccurrences(of: "\n", with: "\\n") + "'})"
        XCTAssertEqual(r.redact(repr), "environ({'SIGNING_KEY': '***'})")
        let json = String(decoding: try JSONSerialization.data(withJSONObject: ["k": Self.pem]), as: UTF8.self)
        XCTAssertEqual(r.redact(json), #"{"k":"***"}"#)
        XCTAssertFalse(r.redact(json).contains("MIIEvQ"))
    }

    /// A service-account JSON (several lines; its private key one string with written `\n`s).
    func testServiceAccountJSONDoesNotLeakInAnyForm() throws {
        let account = #"""
            {
              "type": "service_account",
              "private_key_id": "8f3a9c0e1d2b4f6a8c0e1d2b4f6a8c0e1d2b4f6a",
              "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----\n",
              "client_email": "ci@project.iam.gserviceaccount.com"
            }
            """#
        let r = SecretRedactor(environment: ["GOOGLE_APPLICATION_CREDENTIALS_JSON": account])
        let printedOneLine = try JSONSerialization.data(withJSONObject: ["creds": account])
        for text in [account, String(decoding: printedOneLine, as: UTF8.self), account.replacingOccurrences(of: "\n", with: "\\n")] {
            let masked = r.redact(text)
            XCTAssertFalse(masked.contains("8f3a9c0e1d2b4f6a"), masked)
            XCTAssertFalse(masked.contains("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"), masked)
        }
        for line in account.split(separator: "\n") where line.contains("MIIEvQ") {
            XCTAssertFalse(r.redact(String(line)).contains("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"))
        }
    }

    /// Before: none of these names counted as secret.
    func testBroaderSecretNames() {
        let env = [
            "DOCKER_AUTH_CONFIG": #"{"auths":{"r.io":{"auth":"dXNlcjpwYXNz"}}}"#, "CI_JOB_JWT": "eyJhbGciOiJSUzI1NiJ9.payload.sig",
            "DB_PASS": "pass-value-1", "SMTP_PWD": "pwd-value-2", "NPM_AUTH": "auth-value-3", "GIT_AUTHOR_NAME": "Jane Doe Smith",
            "PASSAGE_DIR": "/srv/passage", "PWD": "/work/checkout", "OLDPWD": "/work/elsewhere",
        ]
        let r = SecretRedactor(environment: env)
        for name in ["DOCKER_AUTH_CONFIG", "CI_JOB_JWT", "DB_PASS", "SMTP_PWD", "NPM_AUTH"] {
            XCTAssertEqual(r.redact("x \(env[name] ?? "") y"), "x *** y", name)
        }
        XCTAssertEqual(r.redact("by Jane Doe Smith in /srv/passage"), "by Jane Doe Smith in /srv/passage")
        XCTAssertEqual(r.redact("in /work/checkout from /work/elsewhere"), "in /work/checkout from /work/elsewhere",
                       "the shell's PWD is a folder, not a password (make test found it masked)")
    }

    /// Before: `DATABASE_URL=postgres://u:p@h` was not secret-looking and printed whole.
    func testPasswordsInURLsAreMaskedWhateverTheName() {
        let r = SecretRedactor(environment: ["DATABASE_URL": "postgres://app:db-pass-4411@db:5432/app", "HOME": "/root"])
        XCTAssertEqual(r.redact("connecting to postgres://app:db-pass-4411@db:5432/app"), "connecting to postgres://app:***@db:5432/app")
        XCTAssertEqual(r.redact("password was db-pass-4411"), "password was ***", "the password alone too")
        XCTAssertEqual(r.redact("redis://:pw@cache:6379/0 and http://host:8080/x and ssh://git@host"),
                       "redis://:***@cache:6379/0 and http://host:8080/x and ssh://git@host", "a URL's password, however short")
        XCTAssertEqual(SecretRedactor(environment: [:], also: ["queue-pass-1"]).redact("queue-pass-1"), "***")
    }
}
