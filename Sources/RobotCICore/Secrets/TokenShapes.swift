import Foundation

/// Tokens whose shape gives them away, masked wherever they appear, whether or not an
/// environment variable holds them: a test that prints a token it read from a file, one
/// pasted into a fixture, one in a pytest id. GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`,
/// `github_pat_`), AWS access key ids (`AKIA`, `ASIA`), Slack (`xoxb-`, `xoxp-`, …) and GitLab
/// (`glpat-`). The prefix stays (`ghp_***`), so a reader still sees what kind of token it was.
public enum TokenShapes {
    struct Shape: Sendable {
        let prefix: String
        /// The fewest body characters after the prefix; the published formats have at least these.
        let minimum: Int
        /// The most body characters (AWS key ids are exactly 16); nil for no limit.
        let maximum: Int?
        let body: @Sendable (Unicode.Scalar) -> Bool
    }

    private static func alphanumeric(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s)
    }

    static let shapes: [Shape] =
        ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"].map { Shape(prefix: $0, minimum: 36, maximum: nil, body: alphanumeric) }
        + [Shape(prefix: "github_pat_", minimum: 22, maximum: nil, body: { alphanumeric($0) || $0 == "_" })]
        + ["AKIA", "ASIA"].map {
            Shape(prefix: $0, minimum: 16, maximum: 16, body: { ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        }
        + ["xoxa-", "xoxb-", "xoxe-", "xoxo-", "xoxp-", "xoxr-", "xoxs-"].map {
            Shape(prefix: $0, minimum: 10, maximum: nil, body: { alphanumeric($0) || $0 == "-" })
        }
        + [Shape(prefix: "glpat-", minimum: 20, maximum: nil, body: { alphanumeric($0) || $0 == "-" || $0 == "_" })]

    /// `text` with every token of a known shape replaced by its prefix and `***`.
    public static func masked(_ text: String) -> String {
        // Cheap first: most text holds none of the prefixes' first letters in that order.
        guard text.contains("gh") || text.contains("github_pat_") || text.contains("AKIA") || text.contains("ASIA")
            || text.contains("xox") || text.contains("glpat-") else { return text }
        var scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        scan: while i < scalars.count {
            // A token starts a word: `MAKIA…` is no key id.
            if i == 0 || !(alphanumeric(scalars[i - 1]) || scalars[i - 1] == "_") {
                for shape in shapes where matches(shape.prefix, in: scalars, at: i) {
                    let start = i + shape.prefix.unicodeScalars.count
                    var end = start
                    while end < scalars.count, shape.body(scalars[end]) { end += 1 }
                    let length = end - start
                    let endsWord = end == scalars.count || !alphanumeric(scalars[end])
                    guard length >= shape.minimum, shape.maximum.map({ length <= $0 }) ?? true, endsWord else { continue }
                    out.append(contentsOf: shape.prefix.unicodeScalars)
                    out.append(contentsOf: URLCredentials.mask.unicodeScalars)
                    i = end
                    continue scan
                }
            }
            out.append(scalars[i])
            i += 1
        }
        scalars.removeAll()
        return String(out)
    }

    private static func matches(_ prefix: String, in scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var i = index
        for p in prefix.unicodeScalars {
            guard i < scalars.count, scalars[i] == p else { return false }
            i += 1
        }
        return true
    }
}
