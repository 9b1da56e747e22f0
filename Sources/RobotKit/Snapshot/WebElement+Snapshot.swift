import Foundation
import SnapshotCompare

extension WebElement {
    /// Compares the element's box (scrolled into view; the part inside the viewport) with its
    /// baseline, as ``WebApp/verifySnapshot(named:tolerance:function:file:line:)`` does the
    /// viewport. The element must exist (waiting up to `implicitWaitTimeout`) and be unique.
    @discardableResult
    public func verifySnapshot(
        named name: String, tolerance: SnapshotTolerance? = nil, function: String = #function,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        app.verifySnapshot(name, of: self, tolerance: tolerance, settings: SnapshotSettings(), at: Caller(function: function, file: file, line: line))
    }
}

/// How different a snapshot may be from its baseline (`SnapshotCompare`'s, so tests that
/// import only RobotKit can name it).
public typealias SnapshotTolerance = SnapshotCompare.SnapshotTolerance
