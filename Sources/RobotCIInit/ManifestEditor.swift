/// Adds the UI test target (and the robotci dependency) to an existing Package.swift, only
/// where the edit is certain: a literal `Package(` call whose `targets:` (and `dependencies:`,
/// if any) are array literals. Anything else — manifests built from variables, or a tools
/// version older than the generated code needs — is left untouched and the lines to add are
/// printed instead: a half-understood manifest must never be rewritten.
struct ManifestEditor {
    enum Outcome: Equatable {
        /// The edited manifest.
        case edited(String)
        /// Already names the target: nothing to do.
        case alreadyThere
        /// Not safe to edit; the reason, for the message.
        case manual(String)
    }

    let names: SuiteNames
    let dependency: RobotCIDependency

    func edit(_ manifest: String) -> Outcome {
        if manifest.contains("\"\(names.target)\"") { return .alreadyThere }
        guard let tools = Self.toolsVersion(manifest), tools >= (5, 9) else {
            return .manual("its swift-tools-version is older than 5.9 (or missing); robotci needs 6.0")
        }
        let chars = Array(manifest)
        guard let call = Self.packageCall(in: chars) else {
            return .manual("it has no `let package = Package(` call robotci init can read")
        }
        let labels = Self.topLevelArrayLabels(in: chars, from: call)
        guard let targets = labels["targets"] else {
            return .manual("its `targets:` is not an array literal in the `Package(` call")
        }
        let hasRobotCI = manifest.contains("package(name: \"robotci\"") || manifest.contains(Self.dependencyMarker(dependency))
        var edits: [(at: Int, text: String)] = []
        edits.append((targets.afterBracket, "\n" + ProjectTemplates.testTarget(names, dependency: dependency)))
        if !hasRobotCI {
            let line = "\n        \(dependency.packageLine),"
            if let deps = labels["dependencies"] {
                edits.append((deps.afterBracket, line))
            } else if Self.hasTopLevelLabel("dependencies", in: chars, from: call) {
                return .manual("its `dependencies:` is not an array literal in the `Package(` call")
            } else {
                edits.append((targets.labelStart, "dependencies: [\(line)\n    ],\n    "))
            }
        }
        var out = chars
        for edit in edits.sorted(by: { $0.at > $1.at }) {
            out.insert(contentsOf: Array(edit.text), at: edit.at)
        }
        return .edited(String(out))
    }

    /// A text unique to the dependency line, to notice it is already there.
    static func dependencyMarker(_ dependency: RobotCIDependency) -> String {
        switch dependency {
        case .path(let path): return "path: \(SwiftLiteral.string(path))"
        case .url(let url, _): return SwiftLiteral.string(url)
        }
    }

    static func toolsVersion(_ manifest: String) -> (Int, Int)? {
        guard let first = manifest.split(separator: "\n", maxSplits: 1).first,
              let range = first.range(of: "swift-tools-version:") else { return nil }
        let numbers = first[range.upperBound...].trimmingCharacters(in: .whitespaces)
            .split(separator: ".").prefix(2).map { Int($0.prefix { $0.isNumber }) }
        guard numbers.count >= 1, let major = numbers[0] else { return nil }
        return (major, numbers.count > 1 ? (numbers[1] ?? 0) : 0)
    }

    /// Index just after `Package(` of `let package = Package(`, outside comments and strings.
    static func packageCall(in chars: [Character]) -> Int? {
        var scanner = Scanner(chars)
        var matches: [Int] = []
        while let i = scanner.nextCode() {
            if scanner.matches("Package(", at: i), i == 0 || !(chars[i - 1].isLetter || chars[i - 1].isNumber) {
                let before = String(chars[max(0, i - 40)..<i]).replacingOccurrences(of: " ", with: "")
                if before.hasSuffix("letpackage=") { matches.append(i + 8) }
            }
        }
        return matches.count == 1 ? matches[0] : nil
    }

    struct ArrayLabel { let labelStart: Int; let afterBracket: Int }

    /// `label: [` pairs at the Package call's own nesting level.
    static func topLevelArrayLabels(in chars: [Character], from start: Int) -> [String: ArrayLabel] {
        var found: [String: ArrayLabel] = [:]
        walkTopLevel(chars, from: start) { label, labelStart, valueStart in
            if valueStart < chars.count, chars[valueStart] == "[" {
                found[label] = ArrayLabel(labelStart: labelStart, afterBracket: valueStart + 1)
            }
        }
        return found
    }

    static func hasTopLevelLabel(_ name: String, in chars: [Character], from start: Int) -> Bool {
        var seen = false
        walkTopLevel(chars, from: start) { label, _, _ in if label == name { seen = true } }
        return seen
    }

    /// Calls `visit(label, labelStart, valueStart)` for each `label:` at depth 0 of the call
    /// that starts at `start` (just after its `(`), until its closing `)`.
    private static func walkTopLevel(_ chars: [Character], from start: Int, visit: (String, Int, Int) -> Void) {
        var scanner = Scanner(chars, at: start)
        var depth = 0
        while let i = scanner.nextCode() {
            let c = chars[i]
            if c == "(" || c == "[" || c == "{" { depth += 1; continue }
            if c == ")" || c == "]" || c == "}" {
                if depth == 0 { return }
                depth -= 1
                continue
            }
            guard depth == 0, c.isLetter, i == 0 || !(chars[i - 1].isLetter || chars[i - 1].isNumber || chars[i - 1] == "_" || chars[i - 1] == ".") else { continue }
            var j = i
            while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
            let label = String(chars[i..<j])
            var k = j
            while k < chars.count, chars[k] == " " { k += 1 }
            guard k < chars.count, chars[k] == ":" else { scanner.skip(to: j); continue }
            k += 1
            while k < chars.count, chars[k].isWhitespace { k += 1 }
            visit(label, i, k)
            scanner.skip(to: j)
        }
    }
}

/// Walks Swift source character by character, skipping comments and string literals, so
/// brackets and labels inside them are never mistaken for code.
struct Scanner {
    private let chars: [Character]
    private var index: Int

    init(_ chars: [Character], at index: Int = 0) {
        self.chars = chars
        self.index = index
    }

    func matches(_ text: String, at i: Int) -> Bool {
        let t = Array(text)
        return i + t.count <= chars.count && Array(chars[i..<(i + t.count)]) == t
    }

    mutating func skip(to i: Int) { index = max(index, i) }

    /// The index of the next character of code, or nil at the end.
    mutating func nextCode() -> Int? {
        while index < chars.count {
            if matches("//", at: index) {
                while index < chars.count, chars[index] != "\n" { index += 1 }
            } else if matches("/*", at: index) {
                index += 2
                while index < chars.count, !matches("*/", at: index) { index += 1 }
                index += 2
            } else if matches("\"\"\"", at: index) {
                index += 3
                while index < chars.count, !matches("\"\"\"", at: index) { index += chars[index] == "\\" ? 2 : 1 }
                index += 3
            } else if chars[index] == "\"" {
                index += 1
                while index < chars.count, chars[index] != "\"", chars[index] != "\n" { index += chars[index] == "\\" ? 2 : 1 }
                index += 1
            } else {
                defer { index += 1 }
                return index
            }
        }
        return nil
    }
}
