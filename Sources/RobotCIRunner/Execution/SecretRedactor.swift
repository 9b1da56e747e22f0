import Foundation
import RobotCICore

/// Keeps the values of secret-looking environment variables out of every report file.
///
/// Tests inherit robotci's environment, and some runners print it (pytest's assertion
/// rewriting shows `os.environ` whole when a lookup fails). Values of variables whose names
/// say secret (`*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*_KEY`, …) are replaced by `***` in
/// test output, failure messages and batch logs before they are written, as CI systems mask
/// their secrets. Short values (under 6 characters) are left alone: masking `1` or `true`
/// would garble everything.
struct SecretRedactor: Sendable {
    let secrets: [String]

    static let secretWords = ["SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "PRIVATE_KEY", "API_KEY",
                              "APIKEY", "ACCESS_KEY", "COOKIE"]
    static let secretSuffixes = ["_KEY", "_PAT", "_DSN"]

    init(environment: [String: String]) {
        let values = environment.compactMap { name, value -> String? in
            let upper = name.uppercased()
            guard value.count >= 6, Self.secretWords.contains(where: { upper.contains($0) })
                || Self.secretSuffixes.contains(where: { upper.hasSuffix($0) }) else { return nil }
            return value
        }
        // Longest first, so a secret that contains another is masked whole.
        secrets = Set(values).sorted { $0.count > $1.count }
    }

    var isEmpty: Bool { secrets.isEmpty }

    func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var out = text
        for secret in secrets where out.contains(secret) {
            out = out.replacingOccurrences(of: secret, with: "***")
        }
        return out
    }

    func redact(_ attempt: Attempt) -> Attempt {
        guard !secrets.isEmpty else { return attempt }
        var a = attempt
        a.output = redact(a.output)
        a.failures = a.failures.map { f in
            var f = f
            f.message = redact(f.message)
            return f
        }
        return a
    }
}
