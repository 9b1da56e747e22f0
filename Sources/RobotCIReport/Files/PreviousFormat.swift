import Foundation
import RobotCICore

/// Reading results and journals of format v2 and older, which wrote a test's id as text: a
/// repetition as `id (repeat k of n)`. A report folder from such a robotci still merges with a
/// new one. Only this reader parses that text, and only where the run says it repeated its
/// tests, so a test whose own name ends like a repetition stays that test.
enum PreviousFormat {
    /// Whether a results or journal marker is of a format that wrote ids as text.
    static func writesTextIDs(_ marker: String?) -> Bool {
        guard let marker, let version = RunResult.version(of: marker) else { return false }
        return version <= RunResult.lastTextIDVersion
    }

    /// A decoder that reads each id verbatim as the test's own (`TestID.textForm`).
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[TestID.textForm] = true
        return decoder
    }

    private struct StoppedEarly: Decodable {
        struct Metadata: Decodable { var stoppedEarly: String? }
        var metadata: Metadata?
    }

    /// The stop a results file of v2 or older wrote as words (`metadata.stoppedEarly`), so a
    /// stopped run of an older report still stays out of the timings.
    static func stop(in data: Data) -> RunStop? {
        (try? JSONDecoder().decode(StoppedEarly.self, from: data))?.metadata?.stoppedEarly.map { .described($0) }
    }

    /// `result` read with `decoder()`, its repetitions made data. A run repeats all its tests
    /// or none (`metadata.repetitions` says which, once the run ended); a journal cut short
    /// before saying repeated when every planned test's text names a repetition.
    static func upgrading(_ result: RunResult, metadataIsFinal: Bool) -> RunResult {
        let repeated: Bool
        if result.metadata.repetitions != nil {
            repeated = true
        } else if metadataIsFinal {
            repeated = false
        } else {
            let ids = result.plan?.tests ?? result.tests.map(\.id)
            repeated = !ids.isEmpty && ids.allSatisfy { repetition(in: $0.test) != nil }
        }
        guard repeated else { return result }
        return result.renamingTests { id in
            repetition(in: id.test).map { TestID($0.test, repetition: $0.repetition, browser: id.browser) } ?? id
        }
    }

    /// `text` as format v2 wrote a repetition: ` (repeat K of N)` at its very end (K and N
    /// decimal, 1 ≤ K ≤ N, after a non-empty id); nil for any other text.
    static func repetition(in text: String) -> (test: String, repetition: TestID.Repetition)? {
        guard text.hasSuffix(")"), let open = text.range(of: " (repeat ", options: .backwards), open.lowerBound > text.startIndex else { return nil }
        let inner = text[open.upperBound..<text.index(before: text.endIndex)]
        let parts = inner.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "of", parts[0].allSatisfy(\.isASCII), parts[2].allSatisfy(\.isASCII),
              let k = Int(parts[0]), let n = Int(parts[2]), k >= 1, k <= n
        else { return nil }
        return (String(text[..<open.lowerBound]), TestID.Repetition(index: k, count: n))
    }
}
