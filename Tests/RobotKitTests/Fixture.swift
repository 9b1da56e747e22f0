import Foundation

/// File URLs of the HTML pages in `Tests/Fixtures/RobotKit/` (outside the target, so
/// SwiftPM does not ask to declare them as resources).
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RobotKit", isDirectory: true)

    static func url(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }
}
