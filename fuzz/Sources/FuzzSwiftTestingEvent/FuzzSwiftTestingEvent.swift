// Fuzzes SwiftTestingEvent, the decoder of Swift Testing's JSON event stream.
//
// Two kinds of input:
// - starting with "{": raw stream text, one event per line (the corpus holds lines of a
//   real `--event-stream-output-path` run), parsed line by line as SwiftTestingOutputReader does;
// - anything else: fields separated by NUL bytes (kind, testID, message texts…, file,
//   line number) that are encoded into a well-formed event with JSONSerialization; the
//   decoder must then give back exactly what was encoded.
import Foundation
import FuzzSupport
@testable import RobotCIRunner

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSwiftTestingEvent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)
    if input.first == UInt8(ascii: "{") {
        for raw in input.split(separator: 10, omittingEmptySubsequences: false) {
            var line = String(decoding: raw, as: UTF8.self)
            if line.last == "\r" { line.removeLast() }
            let events = SwiftTestingEvent.parse(Substring(line))
            for event in events { checkShape(event) }
            checkSequence(events)
        }
    } else {
        structured(input)
    }
    return 0
}

private let kinds = ["testStarted", "testEnded", "issueRecorded", "testSkipped", "testCancelled", "runStarted", "suiteStarted"]

private func structured(_ input: UnsafeBufferPointer<UInt8>) {
    let fields = input.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    guard fields.count >= 2 else { return }
    let kind = fields[0].count == 1 ? kinds[Int(fields[0].utf8.first!) % kinds.count] : fields[0]
    let testID = fields[1]
    let texts = Array(fields.dropFirst(2).prefix(3))
    let filePath = fields.count > 5 ? fields[5] : nil
    let lineNumber = fields.count > 6 ? Int(fields[6]) : nil
    let isKnown = fields.count > 7 ? !fields[7].isEmpty : nil

    var location: [String: Any] = [:]
    if let filePath { location["_filePath"] = filePath }
    if let lineNumber { location["line"] = lineNumber }
    var issue: [String: Any] = ["sourceLocation": location]
    if let isKnown { issue["isKnown"] = isKnown }
    let payload: [String: Any] = [
        "kind": kind, "testID": testID, "issue": issue,
        "messages": texts.map { ["symbol": "default", "text": $0] },
        "instant": ["absolute": 1.0, "since1970": 2.0],
    ]
    let object: [String: Any] = ["kind": "event", "payload": payload, "version": 0]
    guard let json = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
    let line = String(decoding: json, as: UTF8.self)
    require(line.hasPrefix(SwiftTestingEvent.prefix), "the stream's prefix does not match a sorted-keys event: \(line)")
    let events = SwiftTestingEvent.parse(Substring(line))
    for event in events { checkShape(event) }
    checkSequence(events)

    let listed = SwiftTestingEvent.listedID(testID)
    require(testID.hasPrefix(listed), "listedID \(listed.debugDescription) is no prefix of \(testID.debugDescription)")
    // Events name the stream's own id; the reader matches it to the planned name.
    let id = testID
    switch kind {
    case "testStarted":
        require(events == [.started(name: id)], "testStarted gave \(events)")
    case "testEnded":
        guard events.count == 1, case .finished(let name, let status, _) = events[0] else {
            return require(false, "testEnded gave \(events)")
        }
        require(name == id, "testEnded named \(name.debugDescription), expected \(id.debugDescription)")
        // No verdict from text: the issues recorded before it decide.
        require(status == .ended, "testEnded status \(status)")
    case "issueRecorded":
        if isKnown == true { return require(events.isEmpty, "a known issue gave \(events)") }
        require(events == [.error(file: filePath ?? "", line: lineNumber ?? 0, test: id, message: texts.joined(separator: " — "))],
                "issueRecorded gave \(events) for \(line)")
    case "testSkipped":
        require(events.count == 3, "testSkipped gave \(events)")
    case "testCancelled":
        guard events.count == 1, case .skipped(_, _, let name, _) = events[0] else { return require(false, "testCancelled gave \(events)") }
        require(name == id, "testCancelled named \(name.debugDescription)")
    default:
        require(events.isEmpty, "\(kind) gave \(events)")
    }
}

private func checkShape(_ event: XCTestLine) {
    switch event {
    case .finished(_, _, let seconds):
        require(seconds.isFinite && seconds >= 0, "duration \(seconds)")
    case .other:
        require(false, "the event decoder never yields .other")
    default:
        break
    }
}

/// A skipped test is the whole start/skip/end sequence of one id; anything else is one event.
private func checkSequence(_ events: [XCTestLine]) {
    guard events.count > 1 else { return }
    guard events.count == 3, case .started(let a) = events[0], case .skipped(_, _, let b, _) = events[1],
          case .finished(let c, .skipped, 0) = events[2] else {
        return require(false, "unexpected event sequence \(events)")
    }
    require(a == b && b == c, "skip sequence names differ: \(events)")
}
