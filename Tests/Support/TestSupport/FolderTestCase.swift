import Foundation
import XCTest

/// A test case with a fresh folder of its own (`folder`), made before each test and removed
/// after it, whatever the outcome.
open class FolderTestCase: XCTestCase {
    /// Empty at the start of each test.
    public private(set) var folder: URL!

    /// The folder's name starts with this (for telling leftovers apart).
    open var folderPrefix: String { "robotci-test" }

    override open func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(folderPrefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override open func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
        try super.tearDownWithError()
    }
}
