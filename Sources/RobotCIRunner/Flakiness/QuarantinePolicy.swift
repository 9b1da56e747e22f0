import Foundation
import RobotCICore

/// Which tests the configuration quarantines at the run's start: its regexes and its entries
/// that have not expired. An expired entry quarantines nothing; `expiryLines` say so.
struct QuarantinePolicy: Sendable {
    /// `quarantine:` regexes, compiled once.
    let patterns: [(text: String, regex: NSRegularExpression)]
    let active: [QuarantineEntry]
    let expired: [QuarantineEntry]

    init(patterns: [(String, NSRegularExpression)], entries: [QuarantineEntry], now: Double) {
        self.patterns = patterns.map { (text: $0.0, regex: $0.1) }
        active = entries.filter { !$0.isExpired(at: now) }
        expired = entries.filter { $0.isExpired(at: now) }
    }

    /// The entry that quarantines `id`, if one does.
    func entry(for id: TestID) -> QuarantineEntry? { active.first { $0.matches(id) } }

    /// The regex that quarantines `id`, if one does.
    func pattern(for id: TestID) -> String? { patterns.first { $0.regex.matches(id.test) }?.text }

    func isQuarantined(_ id: TestID) -> Bool { entry(for: id) != nil || pattern(for: id) != nil }

    /// One line per expired entry: which test, whose, since when, where it is written.
    var expiryLines: [String] {
        expired.map { e in
            "robotci: quarantine of \(e.test)\(e.browser.map { " [\($0)]" } ?? "") (\(e.owner)) expired on \(e.expires): "
                + "it fails the run again; fix the test, or renew 'expires' (\(e.source))"
        }
    }

    /// Refuses a configuration that quarantines more than `cap` tests: its entries (each a test)
    /// and the tests of `tests` its regexes match, each test once whatever its repetitions.
    func checkCap(_ cap: Int?, tests: [TestID]) throws {
        guard let cap else { return }
        var held = Set(active.map { TestID($0.test, repetition: nil, browser: $0.browser) })
        for id in tests where pattern(for: id) != nil { held.insert(id.unrepeated) }
        guard held.count > cap else { return }
        let names = held.sorted().prefix(10).map(\.description).joined(separator: ", ")
        throw ConfigError(
            "quarantine-cap is \(cap), and the configuration quarantines \(held.count) tests (\(names)\(held.count > 10 ? ", …" : "")): "
                + "fix and release some (delete their lines from 'quarantine'), or raise quarantine-cap")
    }
}
