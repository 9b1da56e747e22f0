import Foundation
import RobotCICore

/// Swift Testing's JSON event stream (`--event-stream-output-path … --event-stream-version 0`),
/// one object per line, turned into the same `XCTestLine` events the XCTest parser makes,
/// named by the stream's test id (`Module.Suite/test()/File.swift:12:6`; the reader matches
/// it to the listed name), so one executor serves both. Verdicts come from structure, never
/// from message text (a display name can say anything): an end event is `.ended`, and the
/// issues recorded before it, or a cancellation, decide.
enum SwiftTestingEvent {
    /// Every event line starts with this (the stream's records are written with sorted keys).
    static let prefix = #"{"kind":"event""#

    private struct Record: Decodable {
        struct Payload: Decodable {
            var kind: String
            var testID: String?
            var messages: [Message]?
            var issue: Issue?
            var _testCase: TestCase?
            var _comments: [String]?
            var _sourceLocation: Location?
        }
        /// One case of a parameterized test (`displayName` shows its arguments).
        struct TestCase: Decodable { var displayName: String? }
        struct Message: Decodable { var text: String }
        struct Issue: Decodable {
            var sourceLocation: Location?
            var isKnown: Bool?
        }
        struct Location: Decodable {
            var _filePath: String?
            var fileID: String?
            var line: Int?
        }
        var payload: Payload
    }

    /// The events a line stands for (none for suites' and run-level events).
    static func parse(_ line: Substring) -> [XCTestLine] {
        guard let record = try? JSONDecoder().decode(Record.self, from: Data(line.utf8)),
              let rawID = record.payload.testID else { return [] }
        let id = rawID
        let text = (record.payload.messages ?? []).map(\.text)
        switch record.payload.kind {
        case "testStarted":
            return [.started(name: id)]
        case "testEnded":
            return [.finished(name: id, status: .ended, seconds: seconds(in: text.first ?? ""))]
        case "testCancelled":
            // `Test.cancel(_:)`: the test stops and counts as skipped, as Swift Testing shows it.
            let location = record.payload._sourceLocation
            let comment = record.payload._comments?.first.map { ": \($0)" } ?? ""
            return [.skipped(file: location?._filePath ?? location?.fileID ?? "", line: location?.line ?? 0, test: id,
                             reason: "cancelled" + comment)]
        case "issueRecorded":
            if record.payload.issue?.isKnown == true { return [] }
            let location = record.payload.issue?.sourceLocation
            var message = text.joined(separator: " — ")
            if let arguments = record.payload._testCase?.displayName {
                // A parameterized test is reported per function: say which arguments failed.
                message = "with arguments (\(arguments)): " + message
            }
            return [.error(file: location?._filePath ?? location?.fileID ?? "", line: location?.line ?? 0, test: id,
                           message: message)]
        case "testSkipped":
            // A skipped test is never started; give it the whole start/skip/end sequence.
            var reason = text.first ?? "skipped"
            if let colon = reason.range(of: "skipped: ") {
                reason = String(reason[colon.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            return [.started(name: id), .skipped(file: "", line: 0, test: id, reason: reason),
                    .finished(name: id, status: .skipped, seconds: 0)]
        default:
            return []
        }
    }

    /// `Module.Suite/test()/File.swift:12:6` → `Module.Suite/test()` (the id `--list-tests` prints).
    static func listedID(_ raw: String) -> String {
        guard let location = TestID(raw).swiftTestingLocation else { return raw }
        return String(raw[..<location.lowerBound])
    }

    /// The event with its test named by `resolve` (the stream's id → the planned test's name).
    static func renamed(_ event: XCTestLine, _ resolve: (String) -> String) -> XCTestLine {
        switch event {
        case .started(let name): return .started(name: resolve(name))
        case .finished(let name, let status, let seconds): return .finished(name: resolve(name), status: status, seconds: seconds)
        case .error(let file, let line, let test, let message): return .error(file: file, line: line, test: resolve(test), message: message)
        case .skipped(let file, let line, let test, let reason): return .skipped(file: file, line: line, test: resolve(test), reason: reason)
        case .summary, .other: return event
        }
    }

    /// `… passed after 0.001 seconds.` → 0.001 (the last ` after `: a display name may hold one).
    private static func seconds(in summary: String) -> Double {
        guard let after = summary.range(of: " after ", options: .backwards) else { return 0 }
        // 309+ digits read as infinity, which no report can hold (caught by an invariant of fuzz/FuzzSwiftTestingEvent).
        return Double(summary[after.upperBound...].prefix { $0.isNumber || $0 == "." }).flatMap { $0.isFinite ? $0 : nil } ?? 0
    }
}
