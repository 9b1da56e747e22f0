import Foundation
import RobotCICore

/// The ledger in `history.json`, under `ledger`:
/// `{"format": "robotci-ledger-v1", "runs": [{"id", "commit", "startedAt"}], "tests": [{"id":
/// {"test", "browser"}, "c": "-1-2", "p": {…}}]}`: per test one character per run (`-` none,
/// else the digit of its `Verdicts`: 1 passed, 2 failed, 4 flaky within the run, summed) and
/// its past, when it has one.
extension FlakeLedger: Codable {
    private struct Stored: Decodable {
        var format: String
        var runs: [Run]
        var tests: [StoredTest]
    }

    private struct StoredTest: Decodable {
        var id: TestID
        var c: String
        var p: Past?
    }

    /// Never throws for what the file holds: a ledger that cannot be read decodes as an empty
    /// one whose `problem` says why, so a bad ledger costs the history nothing but itself.
    public init(from decoder: Decoder) throws {
        self.init()
        do {
            let stored = try Stored(from: decoder)
            self = try Self.checked(stored)
        } catch let e as LedgerError {
            problem = e.message
        } catch {
            problem = "not a flake ledger (\(DecodingFailure.describe(error)))"
        }
    }

    private static func checked(_ s: Stored) throws -> FlakeLedger {
        guard s.format == formatName else {
            throw LedgerError("format '\(s.format)' is not '\(formatName)'" + (s.format.hasPrefix("robotci-ledger-v") ? " (written by another robotci)" : ""))
        }
        var ids = Set<String>()
        for r in s.runs where !ids.insert(r.id).inserted { throw LedgerError("run '\(r.id)' is listed twice") }
        var out = FlakeLedger(runs: s.runs)
        for t in s.tests {
            let name = t.id.description
            guard t.id.repetition == nil else { throw LedgerError("test '\(name)' names a repetition; the ledger keeps tests") }
            guard out.tests[t.id] == nil else { throw LedgerError("test '\(name)' is listed twice") }
            var cells: [Verdicts] = []
            cells.reserveCapacity(s.runs.count)
            for ch in t.c.utf8 {
                switch ch {
                case UInt8(ascii: "-"): cells.append(.none)
                case UInt8(ascii: "1")...UInt8(ascii: "7"): cells.append(Verdicts(rawValue: Int(ch - UInt8(ascii: "0"))))
                default: throw LedgerError("test '\(name)' has a cell '\(Character(Unicode.Scalar(ch)))' (one of - 1 … 7 per run)")
                }
            }
            guard cells.count == s.runs.count else { throw LedgerError("test '\(name)' has \(cells.count) cells for \(s.runs.count) runs") }
            let past = t.p ?? Past()
            guard past.runs >= 0, past.flakyRuns >= 0, past.flakyRuns <= past.runs, past.clean >= 0, past.clean <= past.runs,
                  past.flakyCommits.count <= min(commitCap, past.flakyRuns),
                  past.verdictsAt.values.allSatisfy({ (0...7).contains($0) })
            else { throw LedgerError("test '\(name)' has impossible counts (\(past.flakyRuns) flaky of \(past.runs) runs, \(past.clean) clean)") }
            out.tests[t.id] = Entry(cells: cells, past: past)
        }
        return out
    }

    /// The stored shape through `Encoder` (`RunHistory.encoded()` writes `encodedBytes()`).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(format, forKey: .format)
        try c.encode(runs, forKey: .runs)
        var list = c.nestedUnkeyedContainer(forKey: .tests)
        for id in tests.keys.sorted() {
            guard let e = tests[id] else { continue }
            var t = list.nestedContainer(keyedBy: Keys.self)
            try t.encode(String(decoding: e.cells.map(Self.cellByte), as: UTF8.self), forKey: .c)
            try t.encode(id, forKey: .id)
            if !e.past.isEmpty { try t.encode(e.past, forKey: .p) }
        }
    }

    private enum Keys: String, CodingKey { case format, runs, tests, c, id, p }

    static func cellByte(_ v: Verdicts) -> UInt8 { v == .none ? UInt8(ascii: "-") : UInt8(ascii: "0") + UInt8(v.rawValue) }

    /// The ledger's JSON bytes.
    public func encodedBytes() -> [UInt8] {
        var w = LedgerJSON()
        w.raw("{\"format\":")
        w.string(format)
        w.raw(",\"runs\":[")
        for (i, r) in runs.enumerated() {
            if i > 0 { w.raw(",") }
            w.raw("{")
            if let c = r.commit { w.raw("\"commit\":"); w.string(c); w.raw(",") }
            w.raw("\"id\":"); w.string(r.id)
            w.raw(",\"startedAt\":"); w.number(r.startedAt)
            w.raw("}")
        }
        w.raw("],\"tests\":[")
        for (i, id) in tests.keys.sorted().enumerated() {
            guard let e = tests[id] else { continue }
            if i > 0 { w.raw(",") }
            w.raw("{\"c\":\"")
            w.out.append(contentsOf: e.cells.map(Self.cellByte))
            w.raw("\",\"id\":{")
            if let b = id.browser { w.raw("\"browser\":"); w.string(b); w.raw(",") }
            w.raw("\"test\":"); w.string(id.test); w.raw("}")
            if !e.past.isEmpty { w.raw(",\"p\":"); w.past(e.past) }
            w.raw("}")
        }
        w.raw("]}")
        return w.out
    }
}

/// A bad ledger: what is wrong, for the warning that names the file and the key.
struct LedgerError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The few JSON shapes the ledger writes.
private struct LedgerJSON {
    var out: [UInt8] = []

    mutating func raw(_ s: String) { out.append(contentsOf: s.utf8) }

    mutating func string(_ s: String) { JSONText.appendString(s, to: &out) }

    mutating func number(_ x: Double) {
        raw(x.isFinite ? (x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)) : "0")
    }

    mutating func past(_ p: FlakeLedger.Past) {
        var first = true
        func key(_ k: String) {
            raw(first ? "{\"" : ",\"")
            raw(k)
            raw("\":")
            first = false
        }
        if !p.verdictsAt.isEmpty {
            key("at")
            raw("{")
            for (i, c) in p.verdictsAt.keys.sorted().enumerated() {
                if i > 0 { raw(",") }
                string(c)
                raw(":" + String(p.verdictsAt[c] ?? 0))
            }
            raw("}")
        }
        if p.clean > 0 { key("clean"); raw(String(p.clean)) }
        if !p.flakyCommits.isEmpty {
            key("flakyCommits")
            raw("[")
            for (i, c) in p.flakyCommits.enumerated() {
                if i > 0 { raw(",") }
                string(c)
            }
            raw("]")
        }
        if p.flakyRuns > 0 { key("flakyRuns"); raw(String(p.flakyRuns)) }
        if let l = p.lastFlaky { key("lastFlaky"); number(l) }
        if p.runs > 0 { key("runs"); raw(String(p.runs)) }
        raw(first ? "{}" : "}")
    }
}

extension FlakeLedger.Past: Codable {
    private enum Keys: String, CodingKey { case runs, flakyRuns, flakyCommits, lastFlaky, clean, verdictsAt = "at" }

    /// Every field may be left out (it is then its default).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        runs = try c.decodeIfPresent(Int.self, forKey: .runs) ?? 0
        flakyRuns = try c.decodeIfPresent(Int.self, forKey: .flakyRuns) ?? 0
        flakyCommits = try c.decodeIfPresent([String].self, forKey: .flakyCommits) ?? []
        lastFlaky = try c.decodeIfPresent(Double.self, forKey: .lastFlaky)
        clean = try c.decodeIfPresent(Int.self, forKey: .clean) ?? 0
        verdictsAt = try c.decodeIfPresent([String: Int].self, forKey: .verdictsAt) ?? [:]
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        if runs > 0 { try c.encode(runs, forKey: .runs) }
        if flakyRuns > 0 { try c.encode(flakyRuns, forKey: .flakyRuns) }
        if !flakyCommits.isEmpty { try c.encode(flakyCommits, forKey: .flakyCommits) }
        try c.encodeIfPresent(lastFlaky, forKey: .lastFlaky)
        if clean > 0 { try c.encode(clean, forKey: .clean) }
        if !verdictsAt.isEmpty { try c.encode(verdictsAt, forKey: .verdictsAt) }
    }
}
