import Foundation

/// Seconds as whole milliseconds for a protocol that takes them (libcurl's timeouts, a
/// WebDriver pause, a page script's `setTimeout`).
///
/// `Int(seconds * 1000)` traps on an infinite or NaN value, and a test author may well wait
/// with `timeout: .infinity` or `.greatestFiniteMagnitude`. Here a value past 2³¹ − 1 ms
/// (24.8 days, the largest delay `setTimeout` honours: a larger one fires at once) is that
/// maximum, and a negative or NaN value is 0.
package enum Milliseconds {
    package static let maximum = Int(Int32.max)

    package static func of(_ seconds: TimeInterval) -> Int {
        let ms = seconds * 1000
        guard ms > 0 else { return 0 }  // also NaN
        return ms >= Double(maximum) ? maximum : Int(ms)
    }
}
