import Foundation
import WorkerContract
import ProcessToolkit

/// The W3C WebDriver engine's launches: each one a new session of a WebDriver server (so a
/// new browser, isolated by construction), deleted when the app terminates. The server is
/// `ROBOTCI_WEBDRIVER_URL` (a Selenium Grid, Appium, a driver robotci does not start), or a
/// chromedriver this process starts (`ROBOTKIT_ENGINE=webdriver`), which is how the engine is
/// tested here. Chromium's own engine is `ChromiumBrowser`; this one is for every browser that
/// speaks only WebDriver.
final class WebDriverBrowser: BrowserEngine {
    private let driver: ChromeDriverService

    init(driver: ChromeDriverService) {
        self.driver = driver
    }

    var browserProcessID: Int32? { nil }

    func openPage(arguments: [String], url: String, isolation: BrowserIsolation) throws(RobotKitError) -> LaunchedPage {
        let environment = WorkerEnvironment()
        let endpoint: String
        var capabilities: [String: Any] = [
            "pageLoadStrategy": "none", "timeouts": ["script": 600_000, "pageLoad": 60_000, "implicit": 0],
        ]
        if let remote = environment.webDriverURL {
            endpoint = remote
            capabilities["browserName"] = ProcessInfo.processInfo.environment["ROBOTKIT_WEBDRIVER_BROWSER"] ?? "chrome"
            if capabilities["browserName"] as? String == "chrome" {
                capabilities["goog:chromeOptions"] = ["args": arguments]
            }
            if let extra = ProcessInfo.processInfo.environment["ROBOTKIT_WEBDRIVER_CAPABILITIES"] {
                capabilities = try Self.merging(capabilities, json: extra)
            }
        } else {
            let own = try driver.endpoint()
            endpoint = own.baseURL
            let profile = own.scratch.appendingPathComponent("profile-\(UUID().uuidString)").path
            capabilities["browserName"] = "chrome"
            capabilities["goog:loggingPrefs"] = ["browser": "ALL"]
            capabilities["goog:chromeOptions"] = [
                "binary": own.chromiumLauncher, "args": arguments + ["--user-data-dir=\(profile)"],
                // chromedriver's default --enable-logging makes Chromium log every INFO line.
                "excludeSwitches": ["enable-logging"],
            ]
        }
        let session: WebDriverSession
        do {
            session = try WebDriverSession.create(driverURL: endpoint, capabilities: capabilities)
        } catch {
            if error.webDriverCode == "session not created" {
                throw .driverStart("\(error.message)\nchromedriver log:\n\(driver.logTail())")
            }
            throw error
        }
        do {
            try session.navigate(to: url)
        } catch {
            try? session.delete(timeout: 5)
            throw error
        }
        return LaunchedPage(driver: WebDriverPage(session: session))
    }

    /// `base` with the capabilities of `json` (`ROBOTKIT_WEBDRIVER_CAPABILITIES`, a JSON object:
    /// Appium's `platformName`, `appium:automationName`, `appium:deviceName`, a grid's vendor
    /// options) laid over it: a key given there wins, and an object given for an object (such
    /// as `goog:chromeOptions`) is merged one level deep, so RobotKit's switches stay unless named.
    static func merging(_ base: [String: Any], json: String) throws(RobotKitError) -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            throw .configuration("ROBOTKIT_WEBDRIVER_CAPABILITIES must be a JSON object of W3C capabilities, e.g. "
                + "{\"platformName\": \"iOS\", \"appium:automationName\": \"XCUITest\"}; got: \(json.prefix(200))")
        }
        var merged = base
        for (key, value) in object {
            if let given = value as? [String: Any], let current = merged[key] as? [String: Any] {
                merged[key] = current.merging(given) { _, new in new }
            } else {
                merged[key] = value
            }
        }
        return merged
    }

    func close(_ page: LaunchedPage) {
        guard let session = (page.driver as? WebDriverPage)?.session else { return }
        try? session.delete(timeout: 10)
    }
}
