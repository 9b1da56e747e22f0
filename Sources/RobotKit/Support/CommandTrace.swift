import Foundation
import StandardStreams

/// `ROBOTKIT_TRACE=1`: every WebDriver and DevTools command, with how long it took, on
/// standard error. For finding where a slow test spends its time; off by default.
enum CommandTrace {
    static let isOn = ProcessInfo.processInfo.environment["ROBOTKIT_TRACE"] == "1"

    /// A start time when tracing, else nil.
    static func start() -> UInt64? {
        isOn ? DispatchTime.now().uptimeNanoseconds : nil
    }

    /// Prints `label` with the time since `started`.
    static func end(_ started: UInt64?, _ label: @autoclosure () -> String) {
        guard let started else { return }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        StandardStream.error.write("robotkit-trace \(String(format: "%7.1f", milliseconds)) ms  \(label())\n")
    }
}
