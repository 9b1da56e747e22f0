import Foundation
import HTTPClient

#if !canImport(CoreGraphics)
/// A 2-D offset, as CoreGraphics has it (Foundation on Linux has no `CGVector`).
public struct CGVector: Hashable, Sendable {
    public var dx: CGFloat
    public var dy: CGFloat

    public init(dx: CGFloat, dy: CGFloat) {
        self.dx = dx
        self.dy = dy
    }

    public static let zero = CGVector(dx: 0, dy: 0)
}
#endif

/// A point relative to an element, like `XCUICoordinate`: made with
/// `element.coordinate(withNormalizedOffset:)` (0,0 is the top-left corner, 1,1 the
/// bottom-right), moved with `withOffset(_:)` in CSS pixels, used by `tap()`, `press`
/// and drags. Points outside the viewport are clamped to its edge (a finger cannot leave the screen).
public final class WebCoordinate {
    let element: WebElement
    let normalizedOffset: CGVector
    let pointOffset: CGVector

    init(element: WebElement, normalizedOffset: CGVector, pointOffset: CGVector = .zero) {
        self.element = element
        self.normalizedOffset = normalizedOffset
        self.pointOffset = pointOffset
    }

    /// The same point moved by `offset` CSS pixels.
    public func withOffset(_ offset: CGVector) -> WebCoordinate {
        WebCoordinate(
            element: element, normalizedOffset: normalizedOffset,
            pointOffset: CGVector(dx: pointOffset.dx + offset.dx, dy: pointOffset.dy + offset.dy))
    }

    /// The point in viewport CSS pixels (from the element's current frame).
    public var screenPoint: CGPoint {
        let frame = element.frame
        return CGPoint(
            x: frame.minX + frame.width * normalizedOffset.dx + pointOffset.dx,
            y: frame.minY + frame.height * normalizedOffset.dy + pointOffset.dy)
    }

    /// A click at this point.
    public func tap(function: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        gesture("tap", function, file, line) { [.down(clickCount: 1), .up(clickCount: 1)] }
    }

    /// Presses here for `duration` seconds.
    public func press(
        forDuration duration: TimeInterval, function: String = #function, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        gesture("press", function, file, line) { [.down(clickCount: 1), .pause(duration), .up(clickCount: 1)] }
    }

    /// Presses here for `duration` seconds, drags to `other` (over a quarter second) and releases.
    public func press(
        forDuration duration: TimeInterval, thenDragTo other: WebCoordinate, function: String = #function,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        gesture("drag", function, file, line) {
            let end = self.clamped(other.screenPoint)
            return [
                .down(clickCount: 1), .pause(duration), .move(x: Double(Int(end.x)), y: Double(Int(end.y)), duration: 0.25),
                .up(clickCount: 1),
            ]
        }
    }

    private func gesture(
        _ verb: String, _ function: String, _ file: StaticString, _ line: UInt, _ steps: @escaping () -> [PointerAction]
    ) {
        let app = element.app
        guard element.waitForExistence(timeout: app.implicitWaitTimeout) || app.recorder.isHalted else {
            app.operation(verb, "\(element.debugDescription)", defaultValue: (), at: Caller(function: function, file: file, line: line)) {
                _ throws(RobotKitError) in
                throw .webDriver(code: "no such element", "no matches found for \(self.element.debugDescription)")
            }
            return
        }
        let start = clamped(screenPoint)
        let actions = steps()
        app.operation(verb, "a coordinate of \(element.debugDescription)", defaultValue: (),
                      at: Caller(function: function, file: file, line: line)) { engine throws(RobotKitError) in
            try engine.driver.pointer([.move(x: Double(Int(start.x)), y: Double(Int(start.y)), duration: 0)] + actions)
        }
    }

    private func clamped(_ point: CGPoint) -> CGPoint {
        let size = element.app.windowSize
        return CGPoint(
            x: min(max(point.x, 0), CGFloat(max(size.width - 1, 0))),
            y: min(max(point.y, 0), CGFloat(max(size.height - 1, 0))))
    }
}

extension WebElement {
    /// A point of this element: (0,0) its top-left corner, (0.5,0.5) its center, (1,1) its bottom-right.
    public func coordinate(withNormalizedOffset normalizedOffset: CGVector) -> WebCoordinate {
        WebCoordinate(element: self, normalizedOffset: normalizedOffset)
    }
}

extension WebApp {
    /// A point of the page: (0,0) its top-left corner, (1,1) its bottom-right.
    public func coordinate(withNormalizedOffset normalizedOffset: CGVector) -> WebCoordinate {
        root.coordinate(withNormalizedOffset: normalizedOffset)
    }
}
