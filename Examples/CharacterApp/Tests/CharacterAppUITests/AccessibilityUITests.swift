import Foundation
import RobotKit
import XCTest

/// Every screen of the app passes every accessibility audit type, in each of its states.
///
/// With `ROBOTKIT_AUDIT_BENCH=N` (bench/audit/run) each test then audits its screen N more
/// times and prints the median: what an audit costs, on the screens a suite really has.
final class AccessibilityUITests: CharacterAppUITestCase {
    override func tearDown() async throws {
        measureAuditCost()
        try await super.tearDown()
    }

    /// Prints `audit-cost <test> median <ms> ms over <N>` (nothing without the variable).
    private func measureAuditCost() {
        guard let text = ProcessInfo.processInfo.environment["ROBOTKIT_AUDIT_BENCH"], let runs = Int(text), runs > 0,
              let app, app.state == .runningForeground
        else { return }
        var times: [Double] = []
        for _ in 0..<runs {
            let started = Date()
            try? app.performAccessibilityAudit()
            times.append(Date().timeIntervalSince(started) * 1000)
        }
        times.sort()
        let median = runs % 2 == 1 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2
        print(String(format: "audit-cost %@ median %.1f ms over %d (min %.1f, max %.1f)", name, median, runs,
                     times[0], times[runs - 1]))
    }

    @MainActor
    func testHomeIsAccessible() async throws {
        // Given
        try await givenCharacterListSucceeds()

        // When
        launch()

        // Then
        home { robot in
            robot.verifyIsVisible()
            robot.verifyNoAccessibilityIssues()
        }
    }

    @MainActor
    func testCharacterListIsAccessible() async throws {
        // Given
        try await givenCharacterListWithPaginationSucceeds()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }
        characterList { robot in
            robot.verifyIsVisible()
            robot.verifyLoadMoreIsVisible()
            robot.verifyNoAccessibilityIssues()
        }
    }

    @MainActor
    func testCharacterListErrorIsAccessible() async throws {
        // Given
        await givenAllRequestsFail()

        // When
        launch()

        // Then
        home { $0.tapCharacterButton() }
        characterList { robot in
            robot.verifyErrorIsVisible()
            robot.verifyNoAccessibilityIssues()
        }
    }

    @MainActor
    func testCharacterDetailIsAccessible() async throws {
        // Given
        try await givenCharacterDetailSucceeds()

        // When
        launch(deepLink: "/character/1")

        // Then
        characterDetail { robot in
            robot.verifyIsVisible()
            robot.verifyCharacterName("Rick Sanchez")
            robot.verifyNoAccessibilityIssues()
        }
    }

    @MainActor
    func testCharacterDetailErrorIsAccessible() async throws {
        // Given
        try await givenCharacterDetailFailsButListSucceeds()

        // When
        launch(deepLink: "/character/1")

        // Then
        characterDetail { robot in
            robot.verifyErrorIsVisible()
            robot.verifyNoAccessibilityIssues()
        }
    }

    @MainActor
    func testNotFoundIsAccessible() async throws {
        // Given
        await givenAllRequestsReturnNotFound()

        // When
        launch(deepLink: "/episodes/1")

        // Then
        notFound { robot in
            robot.verifyIsVisible()
            robot.verifyNoAccessibilityIssues()
        }
    }
}
