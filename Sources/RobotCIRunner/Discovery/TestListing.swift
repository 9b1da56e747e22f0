import Foundation
import RobotCICore

/// What a test bundle lists, turned into the plan: every test the framework names becomes a
/// planned test, or the listing is refused with the line robotci could not plan (exit 2).
/// Nothing is dropped because its name looks unusual: raw identifiers (`` `shows the
/// banner`() ``), overloads (listed with their source location), nested suites.
enum TestListing {
    /// A listing robotci cannot turn into a plan, with the line or record at fault.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// XCTest's `--list-tests`: a `Listing N tests in …:` header, then one
    /// `Module.Class/testMethod` per line. The header's N is XCTest's own count and must
    /// match the ids read.
    static func xctest(_ output: String) throws(Refusal) -> [TestID] {
        var tests: [TestID] = []
        var announced: Int?
        for line in output.split(separator: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { continue }
            if t.hasPrefix("Listing "), t.hasSuffix(":"), let n = Int(t.dropFirst("Listing ".count).prefix { $0.isNumber }) {
                announced = n
                continue
            }
            // XCTest's ids are Swift identifiers joined by `.` and `/`: no spaces.
            guard t.contains("/"), !t.contains(" ") else {
                throw Refusal(description: "XCTest's listing has a line that is no test id: '\(t.prefix(300))'; robotci plans every listed "
                              + "test or none (a test bundle that prints while loading confuses the listing: move that output into setUp)")
            }
            tests.append(TestID(t))
        }
        if let announced, announced != tests.count {
            throw Refusal(description: "XCTest's listing announces \(announced) tests but names \(tests.count); robotci plans every listed test or none")
        }
        return tests
    }

    /// One record of Swift Testing's event stream (version 0) for `--list-tests`.
    private struct Record: Decodable {
        struct Payload: Decodable {
            var id: String
            var kind: String
            var _tags: [String]?
        }
        var kind: String
        var payload: Payload
    }

    /// Swift Testing's tests and their tags.
    struct SwiftTesting: Equatable {
        /// Every test function, by the name its `--list-tests` prints (the name `--filter` takes).
        var tests: [TestID]
        /// Each test's tags and its suites' (Swift Testing gives a suite's tags to every test
        /// in it), without the leading dot.
        var tags: [TestID: Set<String>]
    }

    /// Swift Testing's `--list-tests` output (one name per line) with the `test` records its
    /// event stream writes meanwhile (one per function and suite, each id with its source
    /// location). The records are the structured list; the printed names are what a filter
    /// takes: each record must be listed, and each listed line must be a record.
    static func swiftTesting(listing: String, records: String) throws(Refusal) -> SwiftTesting {
        var functions: [(id: String, tags: Set<String>)] = []
        var suites: [String: Set<String>] = [:]
        let decoder = JSONDecoder()
        for line in records.split(separator: "\n") where line.hasPrefix("{") {
            guard let record = try? decoder.decode(Record.self, from: Data(line.utf8)), record.kind == "test" else { continue }
            let tags = Set((record.payload._tags ?? []).map(SwiftTestingTags.name))
            if record.payload.kind == "suite" {
                suites[record.payload.id, default: []].formUnion(tags)
            } else {
                functions.append((record.payload.id, tags))
            }
        }
        let listed = listing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var unclaimed = Set(listed)
        // `--list-tests` prints a function's id without its location unless another function
        // has the same name (overloads): then with it.
        let shortCounts = Dictionary(functions.map { (SwiftTestingEvent.listedID($0.id), 1) }, uniquingKeysWith: +)
        var out = SwiftTesting(tests: [], tags: [:])
        for function in functions {
            let short = SwiftTestingEvent.listedID(function.id)
            let name = shortCounts[short] == 1 && unclaimed.contains(short) ? short : function.id
            guard unclaimed.remove(name) != nil else {
                throw Refusal(description: "Swift Testing's event stream names the test '\(function.id)' but its listing has no line '\(name)'; "
                              + "robotci plans every listed test or none (a toolchain whose --list-tests and event stream disagree: report it with both outputs)")
            }
            let id = TestID(name)
            out.tests.append(id)
            var tags = function.tags
            var suite = Substring(short)
            while let slash = TestID.lastOutsideBackticks("/", in: suite) {
                suite = suite[..<slash]
                tags.formUnion(suites[String(suite)] ?? [])
            }
            out.tags[id] = tags
        }
        if let extra = listed.first(where: { unclaimed.contains($0) }) {
            throw Refusal(description: "Swift Testing's listing names '\(extra.prefix(300))', which its event stream has no test record for; "
                          + "robotci plans every listed test or none")
        }
        // The listing's order, not the event stream's (which varies from run to run).
        let position = Dictionary(listed.enumerated().map { ($1, $0) }, uniquingKeysWith: min)
        out.tests.sort { position[$0.test, default: .max] < position[$1.test, default: .max] }
        return out
    }
}
