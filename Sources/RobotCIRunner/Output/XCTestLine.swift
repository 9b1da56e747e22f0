import Foundation

/// One line of XCTest's console output, classified.
///
/// Parsed by hand (prefix checks, last-index searches) rather than with regexes:
/// it runs on every line of every test, and most lines are test output that only
/// needs one `contains` check to be ruled out.
///
/// XCTest writes its own lines whole, but a test's partial line (no newline) or a `\r`
/// progress bar lands in front of them on the same line, so a `Test Case '…'` marker is
/// found where it *ends* the line, not only at its start. Which of several look-alike lines
/// is XCTest's own is decided by `XCTestOutputReader`, not here: a line cannot tell.
enum XCTestLine: Equatable {
    /// `Test Case 'Class.test' started at …` (Linux) or `Test Case '-[Module.Class test]' started.` (macOS)
    case started(name: String)
    /// `Test Case 'Class.test' passed (0.001 seconds)`
    case finished(name: String, status: Status, seconds: Double)
    /// `/path/File.swift:12: error: Class.test : message`
    case error(file: String, line: Int, test: String, message: String)
    /// `/path/File.swift:43: Class.test : Test skipped - reason`
    case skipped(file: String, line: Int, test: String, reason: String)
    /// `\t Executed 3 tests, with 1 test skipped and 2 failures (0 unexpected) in …`: a suite's
    /// counts (the last one a process prints is the whole run's).
    case summary(executed: Int, skipped: Int, failures: Int)
    /// Anything else: the test's own output, suite banners, backtraces.
    case other

    /// `ended`: Swift Testing's end event, which carries no verdict of its own; the issues
    /// recorded for the test (and a cancellation) decide, as Swift Testing itself decides.
    enum Status: String { case passed, failed, skipped, ended }

    init(_ line: Substring) {
        if let marker = line.range(of: "Test Case '", options: .backwards) {
            // The last marker on the line: whatever precedes it is the test's own output.
            let parsed = XCTestLine.parseTestCase(line[marker.upperBound...])
            if parsed != .other {
                self = parsed
                return
            }
        }
        if let parsed = XCTestLine.parseLocated(line) {
            self = parsed
        } else if let summary = XCTestLine.parseSummary(line) {
            self = summary
        } else {
            self = .other
        }
    }

    /// `\t Executed N test(s), with [K test(s) skipped and ]M failure(s) (U unexpected) in …`.
    private static func parseSummary(_ line: Substring) -> XCTestLine? {
        guard line.hasPrefix("\t Executed ") else { return nil }
        var rest = line.dropFirst("\t Executed ".count)
        func number() -> Int? {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count < 10, let n = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            return n
        }
        func word(_ options: [String]) -> Bool {
            for o in options where rest.hasPrefix(o) {
                rest = rest.dropFirst(o.count)
                return true
            }
            return false
        }
        guard let executed = number(), word([" tests, with ", " test, with "]) else { return nil }
        var skipped = 0
        guard var n = number() else { return nil }
        if word([" tests skipped and ", " test skipped and "]) {
            skipped = n
            guard let m = number() else { return nil }
            n = m
        }
        guard word([" failures (", " failure ("]) else { return nil }
        return .summary(executed: executed, skipped: skipped, failures: n)
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
        if tail.hasPrefix(" started at ") || tail == " started." { return .started(name: name) }
        // A result line ends with its duration: anything after it means this is not XCTest's.
        for status in [Status.passed, .failed, .skipped] where tail.hasPrefix(" \(status.rawValue) (") && (tail.hasSuffix(" seconds)") || tail.hasSuffix(" seconds).")) {
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
        var location = line[..<firstColonSpace.lowerBound]
        // A progress bar (`\r`) printed just before the error line is not part of the path.
        if let cr = location.lastIndex(of: "\r") { location = location[location.index(after: cr)...] }
        guard let lineColon = location.lastIndex(of: ":") else { return nil }
        var file = location[..<lineColon]
        // A partial line printed just before it: XCTest's paths are absolute, so when the
        // text from the first `/` on names a file that exists, that is the path.
        if !file.hasPrefix("/"), let slash = file.firstIndex(of: "/"), FileManager.default.fileExists(atPath: String(file[slash...])) {
            file = file[slash...]
        }
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
