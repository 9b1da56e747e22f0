@preconcurrency import Yams

extension Node {
    /// `int`, but nil for a YAML 1.1 base-60 integer (`1:30:00`) whose value or place
    /// value does not fit an `Int`: Yams 5 computes those with unchecked arithmetic and
    /// traps, so `status: 1:1:1:1:1:1:1:1:1:1:1:1` crashed `robotci mock` (found by
    /// fuzz/FuzzScenario). Everything else is exactly Yams' `int`.
    var checkedInt: Int? {
        guard let text = scalar?.string, text.contains(":") else { return int }
        // Yams' sexagesimal: drop "_" and one sign, Int(radix 10) of each ":" part (parts that
        // are not numbers are skipped), then sum part × 60^k from the right, k counting kept parts.
        var digits = text.replacingOccurrences(of: "_", with: "")
        if digits.hasPrefix("-") || digits.hasPrefix("+") { digits.removeFirst() }
        var base = 1, value = 0
        for part in digits.components(separatedBy: ":").compactMap({ Int($0, radix: 10) }).reversed() {
            let (product, o1) = part.multipliedReportingOverflow(by: base)
            let (sum, o2) = value.addingReportingOverflow(product)
            let (next, o3) = base.multipliedReportingOverflow(by: 60)
            if o1 || o2 || o3 { return nil }
            (value, base) = (sum, next)
        }
        if value == .min { return nil }  // Yams negates it for a leading "-"
        return int
    }
}
