// Fuzzes the XCTest console path of BundleDriver: bytes → LineSplitter → XCTestLine,
// and the whole output → CrashSummary (what a crashed test's report shows).
//
// Input: byte 0 chooses how the stream is cut (chunk size, and a small maxLineBytes
// when its high bit is set); the rest is the child's stdout+stderr.
import FuzzSupport
@testable import RobotCIRunner

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXCTestLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)
    guard let control = input.first else { return 0 }
    let stream = UnsafeBufferPointer(rebasing: input.dropFirst())
    let chunk = Int(control & 0x3f) + 1
    let smallLines = control & 0x80 != 0
    let maxLineBytes = smallLines ? 64 : 1 << 20

    // Split as BatchRun.pump does, in chunks as poll() would deliver them.
    var splitter = LineSplitter(maxLineBytes: maxLineBytes)
    var lines: [Substring] = []
    var start = 0
    while start < stream.count {
        let end = min(stream.count, start + chunk)
        splitter.feed(UnsafeBufferPointer(rebasing: stream[start..<end])) { lines.append($0) }
        start = end
    }
    splitter.finish { lines.append($0) }

    for line in lines {
        require(!hasNewline(line), "LineSplitter emitted a line with a newline: \(line.debugDescription)")
        check(XCTestLine(line), line)
    }

    // Without the byte limit, chunking must not matter: the lines are the stream split at
    // "\n" (one trailing "\r" dropped per line), decoded with invalid UTF-8 repaired.
    if !smallLines {
        var expected = stream.split(separator: 10, omittingEmptySubsequences: false).map { bytes -> String in
            var line = String(decoding: bytes, as: UTF8.self)
            if line.last == "\r" { line.removeLast() }
            return line
        }
        if stream.last == 10 || stream.isEmpty { expected.removeLast() }
        require(lines.map(String.init) == expected,
                "LineSplitter depends on chunking: \(lines) vs \(expected)")
    }

    let crash = CrashSummary(output: lines.joined(separator: "\n"))
    if let file = crash.file {
        require(file.hasSuffix(".swift") && !hasNewline(file), "CrashSummary file \(file.debugDescription)")
        require(crash.line != nil, "CrashSummary has a file without a line")
    }
    if let reason = crash.reason { require(!hasNewline(reason), "CrashSummary reason spans lines") }
    return 0
}

private func check(_ event: XCTestLine, _ line: Substring) {
    func noNewline(_ s: String, _ what: String) {
        require(!hasNewline(s), "\(what) contains a newline: \(s.debugDescription) from \(line.debugDescription)")
    }
    switch event {
    case .started(let name):
        noNewline(name, "started name")
        // A marker may end a line that starts with the test's own partial output.
        require(line.contains("Test Case '"), "started from a line that is no Test Case line")
    case .finished(let name, _, let seconds):
        noNewline(name, "finished name")
        require(seconds.isFinite && seconds >= 0, "duration \(seconds) from \(line.debugDescription)")
        require(line.contains("Test Case '"), "finished from a line that is no Test Case line")
        require(line.hasSuffix(" seconds)") || line.hasSuffix(" seconds)."), "a result line must end with its duration: \(line.debugDescription)")
    case .summary(let executed, let skipped, let failures):
        require(line.hasPrefix("\t Executed "), "summary from \(line.debugDescription)")
        require(executed >= 0 && skipped >= 0 && failures >= 0, "negative summary counts from \(line.debugDescription)")
    case .error(let file, _, let test, let message):
        noNewline(file, "error file"); noNewline(test, "error test"); noNewline(message, "error message")
        require(!file.isEmpty, "error without a file")
    case .skipped(let file, _, let test, let reason):
        noNewline(file, "skip file"); noNewline(test, "skip test"); noNewline(reason, "skip reason")
        require(!file.isEmpty, "skip without a file")
    default:  // .other (and any newer kind of line)
        break
    }
}
