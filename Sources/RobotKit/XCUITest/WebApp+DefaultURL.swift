import Foundation
import ProcessToolkit
import XCTest

extension WebApp {
    private static let defaultURLStore = Locked<URL?>(nil)

    /// Where `WebApp()` (`XCUIApplication()`) points: `ROBOTKIT_APP_URL` when set, else
    /// this value. The one line an XCUITest suite adds, since a web app has no bundle:
    /// `XCUIApplication.appURL = URL(fileURLWithPath: ".../index.html")`.
    public static var appURL: URL? {
        get {
            if let text = ProcessInfo.processInfo.environment["ROBOTKIT_APP_URL"], !text.isEmpty {
                return URL(string: text)
            }
            return defaultURLStore.current
        }
        set { defaultURLStore.withLock { $0 = newValue } }
    }

    /// XCUITest's `XCUIApplication()`: the app at ``appURL``. Without one the test fails
    /// here, saying how to set it. After a test failure the app stops acting (XCUITest's
    /// `continueAfterFailure = false`, which Linux XCTest ignores).
    public convenience init(file: StaticString = #filePath, line: UInt = #line) {
        let url = Self.appURL
        self.init(url: url ?? URL(string: "about:blank")!)
        if url == nil {
            XCTFail(
                "XCUIApplication() does not know where the app is: set ROBOTKIT_APP_URL or "
                    + "XCUIApplication.appURL (for example in `override class func setUp()`), or use WebApp(url:)",
                file: file, line: line)
        }
        RobotKitProcess.current.observer.adopt(self)
    }
}
