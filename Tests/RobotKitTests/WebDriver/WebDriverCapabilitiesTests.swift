import Foundation
@testable import RobotKit
import XCTest

/// `ROBOTKIT_WEBDRIVER_CAPABILITIES`: what a grid or Appium needs beyond a browser's name,
/// laid over the capabilities RobotKit sends.
final class WebDriverCapabilitiesTests: XCTestCase {
    func testGivenCapabilitiesWinAndObjectsMergeOneLevel() throws {
        let base: [String: Any] = ["browserName": "chrome", "pageLoadStrategy": "none", "goog:chromeOptions": ["args": ["--headless=new"]]]
        let merged = try WebDriverBrowser.merging(base, json: """
            {"platformName": "iOS", "appium:automationName": "XCUITest", "browserName": "Safari",
             "goog:chromeOptions": {"binary": "/opt/chrome"}}
            """)
        XCTAssertEqual(merged["platformName"] as? String, "iOS")
        XCTAssertEqual(merged["appium:automationName"] as? String, "XCUITest")
        XCTAssertEqual(merged["browserName"] as? String, "Safari", "a given key wins")
        XCTAssertEqual(merged["pageLoadStrategy"] as? String, "none", "RobotKit's stay unless named")
        let chrome = try XCTUnwrap(merged["goog:chromeOptions"] as? [String: Any])
        XCTAssertEqual(chrome["binary"] as? String, "/opt/chrome")
        XCTAssertEqual(chrome["args"] as? [String], ["--headless=new"], "an object is merged, not replaced")
    }

    func testSomethingElseThanAJSONObjectIsAConfigurationError() {
        for text in ["[1]", "platformName: iOS", ""] {
            XCTAssertThrowsError(try WebDriverBrowser.merging([:], json: text)) { error in
                XCTAssertTrue("\(error)".contains("ROBOTKIT_WEBDRIVER_CAPABILITIES must be a JSON object"), "\(error)")
            }
        }
    }
}
