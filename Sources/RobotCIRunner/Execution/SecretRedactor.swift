import Foundation
import RobotCICore

/// Keeps secrets out of every report file and console line: the values of secret-looking
/// environment variables, passwords written in URLs, tokens of well-known shapes
/// (`TokenShapes`: GitHub, AWS, Slack, GitLab), and any extra secret robotci holds (the
/// queue's password).
///
/// Tests inherit robotci's environment, and some runners print it (pytest's assertion
/// rewriting shows `os.environ` whole when a lookup fails). A value is masked (`***`) as it
/// is, in its escaped forms (`\n`, `\"`, `\/`: a dictionary or JSON printed whole), and line by
/// line when it has several lines (a PEM key, a service-account JSON): output is masked whole
/// for attempts and line by line in batch logs, and either way each line of such a secret
/// is found. Short values (under 6 characters) are left alone: masking `1` or `true` would
/// garble everything. Passwords in URLs (`postgres://user:PASSWORD@db`) are masked wherever
/// a URL appears, whatever its length.
public struct SecretRedactor: Sendable {
    /// Every form of every secret, longest first (so a secret that contains another is masked whole).
    let needles: [String]

    static let secretWords = ["SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "PRIVATE_KEY", "API_KEY",
                              "APIKEY", "ACCESS_KEY", "COOKIE", "JWT", "AUTH_CONFIG", "AUTHORIZATION"]
    static let secretSuffixes = ["_KEY", "_PAT", "_DSN"]
    /// Whole parts of a name (split at `_`): `DB_PASS`, `SMTP_PWD`, `NPM_AUTH`, `DOCKER_AUTH_CONFIG`
    /// (but not `GIT_AUTHOR_NAME` or `PASSAGE_DIR`).
    static let secretParts: Set<String> = ["PASS", "PWD", "PW", "AUTH", "JWT", "BEARER", "CREDS"]
    static let minimumLength = 6
    /// A line of a multi-line secret is masked on its own from this length (a PEM line is 64).
    static let minimumLineLength = 16

    public init(environment: [String: String], also extra: [String] = []) {
        var values = extra
        for (name, value) in environment {
            if Self.isSecretName(name) { values.append(value) }
            values += URLCredentials.passwords(in: value)
        }
        var forms = Set<String>()
        for value in values where value.count >= Self.minimumLength {
            for form in Self.escapedForms(of: value) { forms.insert(form) }
            for line in Self.lines(of: value) where line.count >= Self.minimumLineLength {
                for form in Self.escapedForms(of: line) { forms.insert(form) }
            }
        }
        needles = forms.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// The shell's working folders: `PWD` is no password.
    static let notSecret: Set<String> = ["PWD", "OLDPWD"]

    static func isSecretName(_ name: String) -> Bool {
        let upper = name.uppercased()
        guard !notSecret.contains(upper) else { return false }
        return secretWords.contains { upper.contains($0) } || secretSuffixes.contains { upper.hasSuffix($0) }
            || upper.split(separator: "_").contains { secretParts.contains(String($0)) }
    }

    /// The value, and how printing it as a string literal writes it: backslash, newline,
    /// CR and tab escaped, then with `"` or `'` escaped, and with `/` as `\/` (JSON).
    static func escapedForms(of value: String) -> [String] {
        var base = ""
        for ch in value.unicodeScalars {
            switch ch {
            case "\\": base += "\\\\"
            case "\n": base += "\\n"
            case "\r": base += "\\r"
            case "\t": base += "\\t"
            default: base.unicodeScalars.append(ch)
            }
        }
        var forms = [value, base]
        for quoted in [base.replacingOccurrences(of: "\"", with: "\\\""), base.replacingOccurrences(of: "'", with: "\\'")] {
            forms.append(quoted)
            forms.append(quoted.replacingOccurrences(of: "/", with: "\\/"))
        }
        forms.append(base.replacingOccurrences(of: "/", with: "\\/"))
        return Array(Set(forms))
    }

    /// The lines of a multi-line value, split at real line breaks and at written `\n`s
    /// (a JSON key file holds its PEM key as one string with `\n` in it), trimmed.
    static func lines(of value: String) -> [String] {
        guard value.contains("\n") || value.contains("\\n") else { return [] }
        return value.replacingOccurrences(of: "\\n", with: "\n")
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    public var isEmpty: Bool { needles.isEmpty }

    /// `text` with every secret and every password in a URL masked.
    public func redact(_ text: String) -> String {
        var out = text
        for needle in needles where out.contains(needle) {
            out = out.replacingOccurrences(of: needle, with: URLCredentials.mask)
        }
        return TokenShapes.masked(URLCredentials.masked(out))
    }

    func redact(_ attempt: Attempt) -> Attempt {
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
