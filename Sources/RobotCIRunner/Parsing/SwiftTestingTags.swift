import Foundation
import RobotCICore

/// The tags of Swift Testing's tests, from the `test` records its event stream (version 0)
/// writes for `--list-tests`: one per test function and per suite, tags in `_tags`
/// (`[".smoke"]`). A suite's tags belong to every test in it, as Swift Testing applies them.
enum SwiftTestingTags {
    private struct Record: Decodable {
        struct Payload: Decodable {
            var id: String
            var kind: String
            var _tags: [String]?
        }
        var kind: String
        var payload: Payload
    }

    /// Test id (as `--list-tests` prints it) → its tags and its suites', without the dot.
    /// Every listed function is in the map, tagged or not.
    static func parse(_ stream: String) -> [TestID: Set<String>] {
        var functions: [String: Set<String>] = [:]
        var suites: [String: Set<String>] = [:]
        let decoder = JSONDecoder()
        for line in stream.split(separator: "\n") {
            guard line.hasPrefix("{"), let record = try? decoder.decode(Record.self, from: Data(line.utf8)),
                  record.kind == "test" else { continue }
            let tags = Set((record.payload._tags ?? []).map(name))
            let id = SwiftTestingEvent.listedID(record.payload.id)
            if record.payload.kind == "suite" { suites[id, default: []].formUnion(tags) } else { functions[id, default: []].formUnion(tags) }
        }
        var out: [TestID: Set<String>] = [:]
        for (id, own) in functions {
            var tags = own
            // `Module.Outer/Inner/test()` is in the suites `Module.Outer/Inner` and `Module.Outer`.
            var path = id.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            while !path.isEmpty {
                tags.formUnion(suites[path.joined(separator: "/")] ?? [])
                path = path.dropLast()
            }
            out[TestID(id)] = tags
        }
        return out
    }

    /// `.smoke` → `smoke` (how `--tag` names it).
    static func name(_ tag: String) -> String { tag.hasPrefix(".") ? String(tag.dropFirst()) : tag }
}
