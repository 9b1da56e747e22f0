// XCUITest's names for RobotKit's types, so a robot written for iOS compiles unchanged.
//
// Only where XCUITest does not exist: on Apple platforms XCTest brings the real
// `XCUIApplication` & co., and defining them here too would make every use ambiguous.
// On Linux XCTest exists but has no XCUI* types and no `executionTimeAllowance`.
#if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
import Foundation
import XCTest

/// XCUITest's name for ``WebApp``.
public typealias XCUIApplication = WebApp
/// XCUITest's name for ``WebElement``.
public typealias XCUIElement = WebElement
/// XCUITest's name for ``WebElementQuery``.
public typealias XCUIElementQuery = WebElementQuery
/// XCUITest's name for ``WebCoordinate``.
public typealias XCUICoordinate = WebCoordinate
/// XCUITest's name for ``KeyboardKey``.
public typealias XCUIKeyboardKey = KeyboardKey
/// XCUITest's name for ``AccessibilityAuditType``.
public typealias XCUIAccessibilityAuditType = AccessibilityAuditType
/// XCUITest's name for ``AccessibilityAuditIssue``.
public typealias XCUIAccessibilityAuditIssue = AccessibilityAuditIssue

extension XCTestCase {
    /// XCUITest's per-test time limit, honoured on Linux: a test still running this long
    /// after it started (rounded up to whole minutes, at least one, as on Darwin) gets an
    /// XCTest failure line and its process ends, so robotci reports it at once instead of
    /// waiting for its own `--test-timeout`.
    public var executionTimeAllowance: TimeInterval {
        get { RobotKitProcess.current.observer.allowance(for: self) ?? 600 }
        set { RobotKitProcess.current.observer.setAllowance(newValue, for: self) }
    }
}
#endif
