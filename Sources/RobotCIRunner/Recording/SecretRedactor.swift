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
/// is found. Short values (3 to 5 characters) are masked only as a whole word (`pw abc,` but
/// not `abcdef`): masking every `true` inside other words would garble everything. Values of 1
/// or 2 characters cannot be masked without garbling every line; their variables' names are
/// in `unmaskable`, which the run warns about. Passwords in URLs (`postgres://user:PASSWORD@db`)
/// are masked wherever a URL appears, whatever their length.
public struct SecretRedactor: Sendable {
    /// Every form of every secret, longest first (so a secret that contains another is masked whole).
    let needles: [String]
    /// Secrets of 3 to 5 characters, each matched as a whole word only.
    let shortWords: [NSRegularExpression]
    /// The variables whose secret value is too short to mask (1 or 2 characters), by name.
    public let unmaskable: [String]

    static let secretWords = ["SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "PRIVATE_KEY", "API_KEY",
                              "APIKEY", "ACCESS_KEY", "COOKIE", "JWT", "AUTH_CONFIG", "AUTHORIZATION"]
    static let secretSuffixes = ["_KEY", "_PAT", "_DSN"]
    /// Whole parts of a name (split at `_`): `DB_PASS`, `SMTP_PWD`, `NPM_AUTH`, `DOCKER_AUTH_CONFIG`
    /// (but not `GIT_AUTHOR_NAME` or `PASSAGE_DIR`).
    static let secretParts: Set<String> = ["PASS", "PWD", "PW", "AUTH", "JWT", "BEARER", "CREDS"]
    static let minimumLength = 6
    /// From this length a secret is masked as a whole word (shorter ones are in `unmaskable`).
    static let minimumWordLength = 3
    /// A line of a multi-line secret is masked on its own from this length (a PEM line is 64).
    static let minimumLineLength = 16

    public init(environment: [String: String], also extra: [String] = []) {
        var values = extra
        var unmaskable: [String] = []
        for (name, value) in environment {
            if Self.isSecretName(name) {
                values.append(value)
                if !value.isEmpty && value.count < Self.minimumWordLength { unmaskable.append(name) }
            }
            values += URLCredentials.passwords(in: value)
        }
        self.unmaskable = unmaskable.sorted()
        var words = Set<String>()
        for value in values where (Self.minimumWordLength..<Self.minimumLength).contains(value.count) {
            for form in Self.escapedForms(of: value) { words.insert(form) }
        }
        // Not next to a letter, digit or `_`: `abc` is masked in `pw=abc;`, not in `abcdef`.
        shortWords = words.sorted().compactMap {
            try? NSRegularExpression(pattern: "(?<![\\p{L}\\p{N}_])" + NSRegularExpression.escapedPattern(for: $0) + "(?![\\p{L}\\p{N}_])")
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

    public var isEmpty: Bool { needles.isEmpty && shortWords.isEmpty }

    /// `text` with every secret and every password in a URL masked.
    public func redact(_ text: String) -> String {
        var out = text
        for needle in needles where out.contains(needle) {
            out = out.replacingOccurrences(of: needle, with: URLCredentials.mask)
        }
        for word in shortWords {
            out = word.stringByReplacingMatches(in: out, range: NSRange(out.startIndex..., in: out),
                                                withTemplate: NSRegularExpression.escapedTemplate(for: URLCredentials.mask))
        }
        return TokenShapes.masked(URLCredentials.masked(out))
    }

    /// `id` with any secret in it masked: a pytest id can carry a token (`test_api[ghp_…]`).
    /// Report files, the journal and the console name the test by this id; the run itself
    /// still selects the test by its real one. A repetition stays that repetition of the
    /// masked test.
    public func redact(_ id: TestID) -> TestID {
        let masked = redact(id.test)
        return masked == id.test ? id : id.renamed(masked)
    }

    /// How report files name each of `ids`: `redact(_:)`, except that ids which would mask to the
    /// same text get `~2`, `~3`… (in the order of their real ids), so every test keeps a name
    /// of its own and the accounting still counts each one once.
    public func renaming(_ ids: some Sequence<TestID>) -> @Sendable (TestID) -> TestID {
        guard !isEmpty || ids.contains(where: { TokenShapes.masked($0.test) != $0.test }) else { return { $0 } }
        var renamed: [TestID: TestID] = [:]
        var taken = Set<TestID>()
        let all = Set(ids).sorted()
        for id in all { taken.insert(id) }
        for id in all {
            let masked = redact(id)
            guard masked != id else { continue }
            var name = masked
            var n = 1
            while taken.contains(name) {
                n += 1
                name = masked.renamed("\(masked.test)~\(n)")
            }
            taken.insert(name)
            renamed[id] = name
        }
        let table = renamed
        return { [self] id in table[id] ?? redact(id) }
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
