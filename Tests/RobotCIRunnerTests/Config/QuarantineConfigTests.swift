import Foundation
import RobotCICore
@testable import RobotCIRunner
import TestSupport
import XCTest

/// `quarantine:` with regexes and entries `{test, owner, reason, expires}` in one list.
final class QuarantineConfigTests: FolderTestCase {
    private func configuration(_ yaml: String) throws -> RunConfiguration {
        let url = folder.appendingPathComponent("robotci.yml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        var c = RunConfiguration(shards: 1)
        try ConfigLoader.apply([try ConfigLoader.readYAML(at: url.path)], to: &c)
        return c
    }

    private func message(_ yaml: String) -> String? {
        do {
            _ = try configuration(yaml)
            XCTFail("expected a ConfigError")
            return nil
        } catch let e as ConfigError {
            return e.message.replacingOccurrences(of: folder.path + "/", with: "")
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    func testRegexesAndEntriesShareTheList() throws {
        let c = try configuration("""
            shards: 2
            quarantine:
              - '^M.C/testOld$'
              - {test: M.C/testSSO, owner: '@auth', reason: JIRA-1, expires: 2026-12-31}
              - test: M.C/testPay
                browser: webkit
                owner: '@pay'
                expires: 2027-01-15
            """)
        XCTAssertEqual(c.quarantine, ["^M.C/testOld$"])
        XCTAssertEqual(c.quarantineEntries.map(\.test), ["M.C/testSSO", "M.C/testPay"])
        let sso = c.quarantineEntries[0], pay = c.quarantineEntries[1]
        XCTAssertEqual(sso.source, "robotci.yml:2 key 'quarantine', entry 2".replacingOccurrences(of: "robotci.yml", with: folder.appendingPathComponent("robotci.yml").path))
        XCTAssertEqual(sso.note, "owner @auth, until 2026-12-31: JIRA-1")
        XCTAssertEqual(sso.yaml, "  - {test: 'M.C/testSSO', owner: '@auth', reason: 'JIRA-1', expires: 2026-12-31}")
        XCTAssertTrue(sso.matches(TestID("M.C/testSSO", repetition: .init(index: 2, count: 3))))
        XCTAssertFalse(sso.matches(TestID("M.C/testSSO2")))
        XCTAssertTrue(pay.matches(TestID("M.C/testPay", repetition: nil, browser: "webkit")))
        XCTAssertFalse(pay.matches(TestID("M.C/testPay")))
        // 2026-12-31 00:00 UTC is the first moment it no longer applies.
        XCTAssertEqual(sso.expiresAt, 1_798_675_200)
        XCTAssertFalse(sso.isExpired(at: 1_798_675_199))
        XCTAssertTrue(sso.isExpired(at: 1_798_675_200))
        // Regexes alone read as before; so does the environment's comma list.
        XCTAssertEqual(try configuration("quarantine: [a, b]").quarantine, ["a", "b"])
        XCTAssertEqual(try configuration("quarantine: a").quarantine, ["a"])
    }

    func testABadEntryNamesTheFileTheKeyTheEntryAndTheField() {
        XCTAssertEqual(message("quarantine:\n  - {test: M.C/t, owner: me, expires: 2026-02-30}\n"),
                       "robotci.yml:1 key 'quarantine': entry 1 (test 'M.C/t'): 'expires' must be a date YYYY-MM-DD (the first day, UTC, the quarantine no longer applies), got '2026-02-30'")
        XCTAssertEqual(message("quarantine:\n  - x\n  - {test: M.C/t, expires: 2026-01-01}\n"),
                       "robotci.yml:1 key 'quarantine': entry 2 (test 'M.C/t') has no 'owner' (who answers for it), e.g. {test: 'App.CheckoutUITests/testPay', owner: '@payments', reason: 'JIRA-123', expires: 2026-12-31}")
        XCTAssertEqual(message("quarantine:\n  - {test: M.C/t, owner: me, expires: 2026-01-01, until: 2027-01-01}\n"),
                       "robotci.yml:1 key 'quarantine': entry 1 (test 'M.C/t') has an unknown field 'until': a quarantine entry takes test, browser, owner, reason, expires")
        // The live entries alone over the cap: refused before anything is built (an expired one holds nothing).
        do {
            let c = try configuration("quarantine-cap: 1\nquarantine:\n  - {test: M.C/a, owner: o, expires: 2099-01-01}\n  - {test: M.C/b, owner: o, expires: 2099-01-01}\n")
            XCTAssertNoThrow(try ConfigLoader.validate(try configuration("quarantine-cap: 1\nquarantine:\n  - {test: M.C/a, owner: o, expires: 2099-01-01}\n  - {test: M.C/b, owner: o, expires: 2000-01-01}\n")))
            XCTAssertThrowsError(try ConfigLoader.validate(c)) { error in
                XCTAssertEqual((error as? ConfigError)?.message,
                               "quarantine-cap is 1, and 'quarantine' has entries for 2 tests: fix and release some (delete their lines from 'quarantine'), or raise quarantine-cap")
            }
        } catch { XCTFail("\(error)") }
        XCTAssertEqual(message("quarantine-cap: -1\n"), "robotci.yml:1 key 'quarantine-cap': 'quarantine-cap' must be an integer ≥ 0, got '-1'")
        XCTAssertEqual(message("filter:\n  - a\n  - {match: b}\n"), "robotci.yml:1 key 'filter': 'filter' takes regexes (a list of strings), not mappings")
    }

    func testTheCapCountsEntriesAndTheListedTestsRegexesMatch() throws {
        let entries = try [
            QuarantineEntry(number: 1, fields: ["test": "M.C/a", "owner": "o", "expires": "2099-01-01"], source: "s"),
            QuarantineEntry(number: 2, fields: ["test": "M.C/old", "owner": "o", "expires": "2000-01-01"], source: "s"),
        ]
        let policy = QuarantinePolicy(patterns: [("b$", try NSRegularExpression(pattern: "b$"))], entries: entries, now: 1_800_000_000)
        let tests = [TestID("M.C/a"), TestID("M.C/b", repetition: .init(index: 1, count: 2)), TestID("M.C/b", repetition: .init(index: 2, count: 2)),
                     TestID("M.C/old")]
        XCTAssertNoThrow(try policy.checkCap(2, tests: tests), "a test's repetitions are one test; an expired entry holds nothing")
        XCTAssertThrowsError(try policy.checkCap(1, tests: tests)) { error in
            XCTAssertEqual((error as? ConfigError)?.message,
                           "quarantine-cap is 1, and the configuration quarantines 2 tests (M.C/a, M.C/b): fix and release some (delete their lines from 'quarantine'), or raise quarantine-cap")
        }
        XCTAssertFalse(policy.isQuarantined(TestID("M.C/old")))
        XCTAssertEqual(policy.expiryLines, ["robotci: quarantine of M.C/old (o) expired on 2000-01-01: it fails the run again; fix the test, or renew 'expires' (s, entry 2)"])
    }

    /// `browser: chromium` is the default engine's runs: `--browsers chromium,webkit` names them
    /// without a browser (their ids are the tests' own).
    func testChromiumNamesTheDefaultEnginesRuns() throws {
        let entry = try QuarantineEntry(number: 1, fields: ["test": "M.C/testPay", "browser": "chromium", "owner": "@a", "expires": "2099-01-01"],
                                        source: "robotci.yml:3")
        XCTAssertTrue(entry.matches(TestID("M.C/testPay")))
        XCTAssertFalse(entry.matches(TestID("M.C/testPay", repetition: nil, browser: "webkit")))
    }
}
