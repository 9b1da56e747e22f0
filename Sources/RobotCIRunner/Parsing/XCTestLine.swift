/// One line of XCTest's console output, classified.
///
/// Parsed by hand (prefix checks, last-index searches) rather than with regexes:
/// it runs on every line of every test, and most lines are test output that only
/// needs one `hasPrefix` check to be ruled out.
enum XCTestLine: Equatable {
    /// `Test Case 'Class.test' started at …` (Linux) or `Test Case '-[Module.Class test]' started.` (macOS)
    case started(name: String)
    /// `Test Case 'Class.test' passed (0.001 seconds)`
    case finished(name: String, status: Status, seconds: Double)
    /// `/path/File.swift:12: error: Class.test : message`
    case error(file: String, line: Int, test: String, message: String)
    /// `/path/File.swift:43: Class.test : Test skipped - reason`
    case skipped(file: String, line: Int, test: String, reason: String)
    /// Anything else: the test's own output, suite banners, backtraces.
    case other

    enum Status: String { case passed, failed, skipped }

    init(_ line: Substring) {
        if line.hasPrefix("Test Case '") {
            self = XCTestLine.parseTestCase(line.dropFirst("Test Case '".count))
        } else if let parsed = XCTestLine.parseLocated(line) {
            self = parsed
        } else {
            self = .other
        }
    }

    /// Normalises macOS's `-[Module.Class test]` to Linux's `Class.test`.
    static func normalise(_ name: Substring) -> String {
        guard name.hasPrefix("-["), name.hasSuffix("]") else { return String(name) }
        let inner = name.dropFirst(2).dropLast()
        let parts = inner.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return String(name) }
        let cls = parts[0].split(separator: ".").last.map(String.init) ?? String(parts[0])
        return "\(cls).\(parts[1])"
    }

    private static func parseTestCase(_ rest: Substring) -> XCTestLine {
        guard let quote = rest.firstIndex(of: "'") else { return .other }
        let name = normalise(rest[..<quote])
        let tail = rest[rest.index(after: quote)...]
        if tail.hasPrefix(" started") { return .started(name: name) }
        for status in [Status.passed, .failed, .skipped] where tail.hasPrefix(" \(status.rawValue) (") {
            let numberStart = tail.index(tail.startIndex, offsetBy: status.rawValue.count + 3)
            let number = tail[numberStart...].prefix { $0.isNumber || $0 == "." }
            // 309+ digits read as infinity, which no report can hold (caught by an invariant of fuzz/FuzzXCTestLine).
            return .finished(name: name, status: status, seconds: Double(number).flatMap { $0.isFinite ? $0 : nil } ?? 0)
        }
        return .other
    }

    /// `file:line: error: Test : message` and `file:line: Test : Test skipped - reason`.
    private static func parseLocated(_ line: Substring) -> XCTestLine? {
        // Cheap rejection: such lines contain ": " after a ":<digits>" run.
        guard let firstColonSpace = line.range(of: ": ") else { return nil }
        let location = line[..<firstColonSpace.lowerBound]
        guard let lineColon = location.lastIndex(of: ":") else { return nil }
        let file = location[..<lineColon]
        guard !file.isEmpty, let lineNumber = Int(location[location.index(after: lineColon)...]) else { return nil }
        var rest = line[firstColonSpace.upperBound...]
        let isError = rest.hasPrefix("error: ")
        if isError { rest = rest.dropFirst("error: ".count) }
        guard let sep = rest.range(of: " : ") else { return nil }
        let test = normalise(rest[..<sep.lowerBound])
        let message = String(rest[sep.upperBound...])
        if isError { return .error(file: String(file), line: lineNumber, test: test, message: message) }
        if message.hasPrefix("Test skipped") {
            var reason = message.dropFirst("Test skipped".count)
            if reason.hasPrefix(" - ") { reason = reason.dropFirst(3) }
            return .skipped(file: String(file), line: lineNumber, test: test, reason: String(reason))
        }
        return nil
    }
}
