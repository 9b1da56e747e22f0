import Foundation
import RobotCICore
import RobotCIReport

/// Seconds since the run started, from a monotonic clock.
struct RunClock: Sendable {
    let origin = DispatchTime.now().uptimeNanoseconds
    /// Wall-clock start, seconds since 1970 (for the report).
    let startedAt = Date().timeIntervalSince1970

    func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds - origin) / 1e9 }
}
