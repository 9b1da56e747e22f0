import Foundation

/// Pulls the useful part out of a crashed test's output: Swift's `Fatal error:` line
/// (or the backtracer's `Program crashed:` line) and the first frame in user code.
struct CrashSummary: Equatable {
    var reason: String?
    var file: String?
    var line: Int?

    init(output: String) {
        // By Character a "\r" before "\n" makes one "\r\n", which is not "\n": a line ending
        // in CR merged with the next one (caught by an invariant of fuzz/FuzzXCTestLine).
        for raw in output.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if reason == nil, let r = line.range(of: "Fatal error: ") {
                reason = "Fatal error: " + line[r.upperBound...]
            } else if reason == nil, line.hasPrefix("*** Program crashed: ") {
                reason = String(line.dropFirst(4).dropLast(line.hasSuffix(" ***") ? 4 : 0))
            } else if reason == nil, line.hasPrefix("Fatal Python error: ") {
                reason = line  // Python's faulthandler (pytest turns it on)
            } else if file == nil, line.hasPrefix("File \""), let frame = CrashSummary.pythonFrame(line) {
                file = frame.file
                self.line = frame.line
            } else if file == nil, !line.contains("[system]"), !line.contains("[thunk]"),
                      let at = line.range(of: " at /", options: .backwards) {
                // `3 [ra] 0x… CrashTests.testB() + 215 in X.xctest at /path/File.swift:28:19`
                let location = line[line.index(before: at.upperBound)...]
                let parts = location.split(separator: ":")
                guard parts.count >= 2, parts[0].hasSuffix(".swift"), !parts[0].contains(".derived/"),
                      let n = Int(parts[1]) else { continue }
                file = String(parts[0])
                self.line = n
            }
        }
    }

    /// `File "/src/tests/test_a.py", line 8 in test_x` (faulthandler), skipping the
    /// interpreter's and installed packages' frames.
    private static func pythonFrame(_ line: String) -> (file: String, line: Int)? {
        let parts = line.split(separator: "\"", maxSplits: 2)
        guard parts.count == 3, parts[1].hasSuffix(".py"), !parts[1].contains("/lib/python"), !parts[1].contains("site-packages"),
              let range = parts[2].range(of: "line "),
              let n = Int(parts[2][range.upperBound...].prefix { $0.isNumber }) else { return nil }
        return (String(parts[1]), n)
    }
}
