import Foundation
import RobotKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The suite's base class: RobotKit's `UITestCase` (a `MockServer` per test on the
/// worker's port, `launch()`, steps and failure artifacts) pointed at the example app.
///
/// (Not named `UITestCase` itself: a class shadowing its superclass's name makes
/// SwiftPM 6.3's test discovery on Linux crash with a segmentation fault.)
class CharacterAppUITestCase: UITestCase {
    /// `Examples/CharacterApp/app/index.html`, found from this file so the suite runs from any folder.
    static let appPage = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Robots
        .deletingLastPathComponent()  // CharacterAppUITests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // CharacterApp
        .appendingPathComponent("app/index.html")

    override var appURL: URL? { Self.appPage }

    override func setUp() async throws {
        try await super.setUp()
        Self.markOpenFilesCloseOnExec()
    }

    /// Workaround: the MockServer's sockets (SwiftNIO opens them without close-on-exec)
    /// would be inherited by chromedriver, which RobotKit starts on the first `launch()`
    /// of the process without closing them. chromedriver would then keep
    /// ROBOTCI_MOCK_PORT bound after the server stops, and the next test of the process
    /// could not bind it. Marking every open file close-on-exec keeps them out of children.
    private static func markOpenFilesCloseOnExec() {
        #if os(Linux)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for entry in entries {
            guard let descriptor = Int32(entry), descriptor > 2 else { continue }
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
        #endif
    }

    #if os(Linux)
    /// Workaround: stop at the first failure, as XCUITest does, so the failure's
    /// screenshot and accessibility tree show the screen that failed. RobotKit halts
    /// only when `continueAfterFailure` reads false, but Linux XCTest always reads it
    /// as true; later failures would only be consequences of the first.
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if recorder.isHalted { return }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        recorder.isHalted = true
    }
    #endif

    /// Launches the app straight on `route` (`/character/2`), as a deep link does.
    @discardableResult
    func launch(deepLink route: String, file: StaticString = #filePath, line: UInt = #line) -> WebApp {
        var components = URLComponents(url: Self.appPage, resolvingAgainstBaseURL: false)
        components?.fragment = route
        return launch(url: components?.url ?? Self.appPage, file: file, line: line)
    }
}

// MARK: - Robot DSL

extension UITestCase {
    func home(actions: (HomeRobot) -> Void) {
        actions(HomeRobot(app: app))
    }

    func characterList(actions: (CharacterListRobot) -> Void) {
        actions(CharacterListRobot(app: app))
    }

    func characterDetail(actions: (CharacterDetailRobot) -> Void) {
        actions(CharacterDetailRobot(app: app))
    }

    func notFound(actions: (NotFoundRobot) -> Void) {
        actions(NotFoundRobot(app: app))
    }
}
