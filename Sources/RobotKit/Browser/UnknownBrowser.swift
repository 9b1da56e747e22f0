import WorkerContract

/// The engine for a browser name RobotKit does not know: every launch fails saying which
/// names exist, so a typo in `ROBOTCI_BROWSER` is never a silent run on Chromium.
final class UnknownBrowser: BrowserEngine {
    private let name: String

    init(name: String) {
        self.name = name
    }

    var browserProcessID: Int32? { nil }

    func openPage(arguments: [String], url: String, isolation: BrowserIsolation) throws(RobotKitError) -> LaunchedPage {
        throw .configuration(
            "ROBOTCI_BROWSER/ROBOTKIT_BROWSER is \"\(name)\": RobotKit drives \"chromium\" or \"webkit\" "
                + "(any other browser through a WebDriver server: ROBOTCI_WEBDRIVER_URL)")
    }

    func close(_ page: LaunchedPage) {}
}
