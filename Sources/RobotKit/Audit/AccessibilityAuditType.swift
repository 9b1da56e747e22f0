/// What an accessibility audit checks, like XCUITest's `XCUIAccessibilityAuditType` (its
/// name on Linux): an option set whose members, raw values included, are XCUITest's, so a
/// test written for iOS compiles and means the same. docs/RobotKit.md says how each is decided
/// on a web page and which WCAG rules it covers.
public struct AccessibilityAuditType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Text whose contrast with its background is under WCAG AA (4.5:1, 3:1 for large text).
    public static let contrast = AccessibilityAuditType(rawValue: 1 << 0)
    /// An element that reacts to clicks but that assistive technology cannot find.
    public static let elementDetection = AccessibilityAuditType(rawValue: 1 << 1)
    /// A control smaller than 44×44 CSS pixels.
    public static let hitRegion = AccessibilityAuditType(rawValue: 1 << 2)
    /// A control or image with no accessible name.
    public static let sufficientElementDescription = AccessibilityAuditType(rawValue: 1 << 3)
    /// Text that clips or overlaps at 200 % text size.
    public static let dynamicType = AccessibilityAuditType(rawValue: 1 << 16)
    /// Text cut off by its box.
    public static let textClipped = AccessibilityAuditType(rawValue: 1 << 17)
    /// A clickable element with no role that says so.
    public static let trait = AccessibilityAuditType(rawValue: 1 << 18)
    /// A clickable element the keyboard cannot reach.
    public static let action = AccessibilityAuditType(rawValue: 1 << 32)
    /// An element outside the container its role needs (a list item outside a list).
    public static let parentChild = AccessibilityAuditType(rawValue: 1 << 33)
    /// Every audit type.
    public static let all = AccessibilityAuditType(rawValue: ~0)

    /// Each single type with the name XCUITest and the page script give it, in audit order.
    static let named: [(type: AccessibilityAuditType, name: String)] = [
        (.contrast, "contrast"), (.elementDetection, "elementDetection"), (.hitRegion, "hitRegion"),
        (.sufficientElementDescription, "sufficientElementDescription"), (.dynamicType, "dynamicType"),
        (.textClipped, "textClipped"), (.trait, "trait"), (.action, "action"), (.parentChild, "parentChild"),
    ]

    /// The names of the single types this set holds (what the page script is asked to run).
    var names: [String] {
        Self.named.filter { contains($0.type) }.map(\.name)
    }

    /// The single type the page script calls `name`.
    init?(name: String) {
        guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
        self = match.type
    }
}

extension AccessibilityAuditType: CustomStringConvertible {
    /// `contrast`, `[hitRegion, textClipped]`, `all`.
    public var description: String {
        if self == .all { return "all" }
        let names = self.names
        return names.count == 1 ? names[0] : "[" + names.joined(separator: ", ") + "]"
    }
}
