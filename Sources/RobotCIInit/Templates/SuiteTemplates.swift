/// The generated test target's Swift files, laid out as the reference robot suites are:
/// `Shared/` (base class, robots, scenarios) and `UI/` (the tests).
enum SuiteTemplates {
    /// Where the tests find the page: the sample page beside the package, or the team's app.
    enum App: Equatable {
        case samplePage
        case url(String)
    }

    static func files(_ names: SuiteNames, app: App) -> [(path: String, contents: String)] {
        let root = "Tests/\(names.target)"
        return [
            ("\(root)/Shared/\(names.baseClass).swift", baseClass(names, app: app)),
            ("\(root)/Shared/Robots/HomeRobot.swift", app == .samplePage ? sampleRobot : appRobot),
            ("\(root)/Shared/Scenarios/\(names.baseClass)+Scenarios.swift", scenarios),
            ("\(root)/UI/HomeUITests.swift", app == .samplePage ? sampleTests(names) : appTests(names)),
        ]
    }

    static func baseClass(_ names: SuiteNames, app: App) -> String {
        let appURL: String
        switch app {
        case .samplePage:
            appURL = """
                /// `sample-app/index.html`, found from this file so the suite runs from any folder.
                    static let appPage = URL(fileURLWithPath: #filePath)
                        .deletingLastPathComponent()  // Shared
                        .deletingLastPathComponent()  // \(names.target)
                        .deletingLastPathComponent()  // Tests
                        .deletingLastPathComponent()  // the package
                        .appendingPathComponent("sample-app/index.html")

                    // ROBOTKIT_APP_URL, when set, points the same tests at another copy of the app.
                    override var appURL: URL? { super.appURL ?? Self.appPage }
                """
        case .url(let url):
            appURL = """
                /// The app under test (`robotci init --app-url`). ROBOTKIT_APP_URL, when set, wins:
                    /// CI can point the same tests at a preview deployment.
                    override var appURL: URL? { super.appURL ?? URL(string: \(SwiftLiteral.string(url))) }
                """
        }
        return """
            import Foundation
            import RobotKit
            import XCTest

            /// The suite's base class: RobotKit's `UITestCase` gives every test its own `MockServer`
            /// (on the shard's port under robotci; its address reaches the page as the query item
            /// `API_BASE_URL`), `launch()`, robot steps and, on failure, a screenshot, the page's
            /// HTML, the accessibility tree and the mock's request journal in the report.
            ///
            /// Named after the suite rather than `UITestCase`: a class shadowing its superclass's
            /// name crashes SwiftPM's test discovery on Linux.
            class \(names.baseClass): UITestCase {
                \(appURL)
            }

            // MARK: - Robot DSL: one function per screen, so a test reads as a script.

            extension UITestCase {
                func home(actions: (HomeRobot) -> Void) {
                    actions(HomeRobot(app: app))
                }
            }

            """
    }

    static let scenarios = """
        import Foundation
        import MockServer
        import RobotKit
        import XCTest

        // Mock backends. An initial scenario (before `launch()`) answers everything with
        // `registerCatchAll`; a recovery scenario (mid-test) overrides single routes with
        // `register`/`registerPrefix`, which win over the catch-all. `@MainActor` like the
        // tests that call them, so `self` stays on one actor (Swift 6).

        // MARK: - Initial scenarios

        extension UITestCase {
            /// `GET /greeting` answers a message; anything else is 404.
            @MainActor
            func givenGreetingSucceeds() async {
                await serverMock.registerCatchAll { request in
                    if request.path == "/greeting" {
                        return .json(#"{"message": "Hello from the mock server"}"#)
                    }
                    return .status(.notFound)
                }
            }

            /// Every request fails with 500.
            @MainActor
            func givenAllRequestsFail() async {
                await serverMock.registerCatchAll { _ in
                    .status(.internalServerError)
                }
            }
        }

        // MARK: - Recovery scenarios

        extension UITestCase {
            /// After a failure: `GET /greeting` works again.
            @MainActor
            func givenGreetingRecovers() async {
                await serverMock.register(.GET, "/greeting") { _ in
                    .json(#"{"message": "Hello again"}"#)
                }
            }
        }

        """

    static let sampleRobot = """
        import RobotKit
        import XCTest

        /// The sample page's only screen. One robot per screen, one robot per file (the report
        /// names a step after its robot's file), identifiers private to the robot.
        struct HomeRobot: RobotContract {
            let app: WebApp
        }

        // MARK: - Actions

        extension HomeRobot {
            @discardableResult
            func tapLoadGreeting(file: StaticString = #filePath, line: UInt = #line) -> Self {
                let button = app.buttons[AccessibilityIdentifier.loadGreetingButton]
                XCTAssertTrue(button.waitForExistence(timeout: 5), file: file, line: line)
                button.tap()
                return self
            }
        }

        // MARK: - Verifications

        extension HomeRobot {
            @discardableResult
            func verifyIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
                let view = app.otherElements[AccessibilityIdentifier.view]
                XCTAssertTrue(view.waitForExistence(timeout: 5), file: file, line: line)
                return self
            }

            @discardableResult
            func verifyGreeting(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Self {
                let greeting = app.staticTexts[AccessibilityIdentifier.greeting]
                XCTAssertTrue(greeting.waitForExistence(timeout: 5), file: file, line: line)
                XCTAssertEqual(greeting.label, text, file: file, line: line)
                return self
            }

            @discardableResult
            func verifyErrorIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
                let error = app.staticTexts[AccessibilityIdentifier.error]
                XCTAssertTrue(error.waitForExistence(timeout: 5), file: file, line: line)
                return self
            }
        }

        // MARK: - AccessibilityIdentifiers

        /// The page's `data-testid`s (a web app's accessibilityIdentifier).
        private enum AccessibilityIdentifier {
            static let view = "home.view"
            static let loadGreetingButton = "home.loadGreetingButton"
            static let greeting = "home.greeting"
            static let error = "home.error"
        }

        """

    static func sampleTests(_ names: SuiteNames) -> String {
        """
        import RobotKit
        import XCTest

        /// Given a mock backend, when the app is launched, then robots act and verify.
        /// Test methods are `async`: Linux XCTest cannot discover a synchronous `@MainActor` test.
        final class HomeUITests: \(names.baseClass) {
            @MainActor
            func testGreetingFromTheBackendIsShown() async throws {
                // Given
                await givenGreetingSucceeds()

                // When
                launch()

                // Then
                home { robot in
                    robot.verifyIsVisible()
                    robot.tapLoadGreeting()
                    robot.verifyGreeting("Hello from the mock server")
                }
            }

            @MainActor
            func testBackendErrorIsShownAndRetryRecovers() async throws {
                // Given
                await givenAllRequestsFail()

                // When
                launch()

                // Then
                home { robot in
                    robot.tapLoadGreeting()
                    robot.verifyErrorIsVisible()
                }

                await givenGreetingRecovers()

                home { robot in
                    robot.tapLoadGreeting()
                    robot.verifyGreeting("Hello again")
                }
            }
        }

        """
    }

    static let appRobot = """
        import RobotKit
        import XCTest

        /// Your app's first screen. Give its elements `data-testid`s (a web app's
        /// accessibilityIdentifier), list them below and add actions and verifications.
        struct HomeRobot: RobotContract {
            let app: WebApp
        }

        // MARK: - Actions

        extension HomeRobot {
            // e.g. func tapSignIn(file: StaticString = #filePath, line: UInt = #line) -> Self {
            //     let button = app.buttons[AccessibilityIdentifier.signInButton]
            //     XCTAssertTrue(button.waitForExistence(timeout: 5), file: file, line: line)
            //     button.tap()
            //     return self
            // }
        }

        // MARK: - Verifications

        extension HomeRobot {
            /// The page rendered something. Replace with a check of your screen's own element.
            @discardableResult
            func verifyIsVisible(file: StaticString = #filePath, line: UInt = #line) -> Self {
                let anything = app.descendants(matching: .any).firstMatch
                XCTAssertTrue(anything.waitForExistence(timeout: 10), file: file, line: line)
                return self
            }
        }

        // MARK: - AccessibilityIdentifiers

        private enum AccessibilityIdentifier {
            // static let signInButton = "home.signInButton"   // <button data-testid="home.signInButton">
        }

        """

    static func appTests(_ names: SuiteNames) -> String {
        """
        import RobotKit
        import XCTest

        /// Given a mock backend, when the app is launched, then robots act and verify.
        /// The app gets the mock's address as the query item `API_BASE_URL`
        /// (`new URLSearchParams(location.search).get('API_BASE_URL')`); point its API calls there.
        /// Test methods are `async`: Linux XCTest cannot discover a synchronous `@MainActor` test.
        final class HomeUITests: \(names.baseClass) {
            @MainActor
            func testAppOpens() async throws {
                // Given
                await givenGreetingSucceeds()

                // When
                launch()

                // Then
                home { robot in
                    robot.verifyIsVisible()
                }
            }

            @MainActor
            func testAppOpensWhenTheBackendFails() async throws {
                // Given
                await givenAllRequestsFail()

                // When
                launch()

                // Then
                home { robot in
                    robot.verifyIsVisible()
                }
            }
        }

        """
    }
}
