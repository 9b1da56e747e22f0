import Foundation

/// One problem an accessibility audit found, like XCUITest's `XCUIAccessibilityAuditIssue`
/// (its name on Linux): the audit type that found it, a short and a long description, and the
/// element at fault.
public struct AccessibilityAuditIssue: CustomStringConvertible {
    /// The single audit type that found the issue.
    public let auditType: AccessibilityAuditType
    /// A few words: "Contrast failed", "Hit region is too small".
    public let compactDescription: String
    /// What was measured, against what threshold, and which WCAG rule it breaks.
    public let detailedDescription: String
    /// The element at fault: found again by its identifier when that alone finds it, else by a
    /// mark the audit left on it (optional, as XCUITest's is; RobotKit always sets it).
    public let element: WebElement?

    /// The element as the page described it at the audit (its type, identifier and label), for
    /// messages and the report, read without another page round trip.
    let elementSummary: ElementSummary

    /// What the audit read of the element.
    struct ElementSummary: Equatable {
        var type: WebElement.ElementType
        var identifier: String?
        var label: String
        var mark: String
        var frame: CGRect
    }

    /// `Contrast failed: Button "save": Text "Save" is #aaaaaa on #ffffff: 2.32:1, …`.
    public var description: String {
        "\(compactDescription): \(elementSummary.text): \(detailedDescription)"
    }

    /// The issue as `accessibility-audit.json` holds it (the report reads these keys).
    var json: [String: Any] {
        var element: [String: Any] = [
            "type": elementSummary.type.rawValue, "label": elementSummary.label, "outline": elementSummary.mark,
            // Doubles: JSONSerialization on Linux refuses CGFloat.
            "frame": [elementSummary.frame.origin.x, elementSummary.frame.origin.y, elementSummary.frame.width,
                      elementSummary.frame.height].map { Double($0) },
        ]
        element["identifier"] = elementSummary.identifier as Any? ?? NSNull()
        return ["auditType": auditType.description, "compactDescription": compactDescription,
                "detailedDescription": detailedDescription, "element": element]
    }
}

extension AccessibilityAuditIssue.ElementSummary {
    /// `Button "home.save"`, or `Button labelled "Save"` when it has no identifier.
    var text: String {
        if let identifier { return "\(type.displayName) \"\(identifier)\"" }
        return label.isEmpty ? "\(type.displayName) without a name" : "\(type.displayName) labelled \"\(label)\""
    }
}

/// What `performAccessibilityAudit` throws when issues are left after the handler. An error
/// crosses threads (`Sendable`) and an element does not, so it keeps each issue's text and
/// what the element was; the handler got the issues themselves.
public struct AccessibilityAuditError: Error, CustomStringConvertible {
    /// One issue the handler did not ignore.
    public struct Issue: Sendable, Equatable, CustomStringConvertible {
        public let auditType: AccessibilityAuditType
        public let compactDescription: String
        public let detailedDescription: String
        /// The element at fault as the audit saw it: `Button "home.save"`.
        public let element: String

        public var description: String { "\(compactDescription): \(element): \(detailedDescription)" }
    }

    /// The issues the handler did not ignore, in audit order.
    public let issues: [Issue]

    init(issues: [AccessibilityAuditIssue]) {
        self.issues = issues.map {
            Issue(auditType: $0.auditType, compactDescription: $0.compactDescription,
                  detailedDescription: $0.detailedDescription, element: $0.elementSummary.text)
        }
    }

    /// A first line naming every issue in short (what a report shows of a failure), then one
    /// line per issue with what was measured.
    public var description: String {
        let count = issues.count == 1 ? "1 issue" : "\(issues.count) issues"
        let short = issues.map { "\($0.auditType) on \($0.element)" }.joined(separator: "; ")
        return "accessibility audit found \(count): \(short)\n" + issues.map { "  - \($0)" }.joined(separator: "\n")
    }
}
