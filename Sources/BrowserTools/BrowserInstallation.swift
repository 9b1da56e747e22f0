import Foundation
import ProcessToolkit

/// Where chromium, chromedriver and setpriv live on this machine: the one search RobotKit,
/// the runner's shard browsers and the tests use.
public struct BrowserInstallation: Sendable {
    /// The real chromium binary (the Debian `/usr/bin/chromium` script only adds start-up work):
    /// Chromium's headless shell when it is installed, else the full browser.
    public var chromium: String
    public var chromedriver: String
    /// util-linux `setpriv`, used to give children a parent-death signal; `nil` when absent.
    public var setpriv: String? { ChildProcess.setpriv }

    public static let installHint = "install them with `apt-get install chromium-headless-shell chromium-driver`"

    /// A tool is missing; `description` says which and how to install it.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// True when `chromium` is Chromium's headless shell (`chrome-headless-shell`, Debian's
    /// `chromium-headless-shell`): the browser without its desktop layer, which a test never
    /// shows. On the bundled example it costs about a third of the full browser's CPU per test
    /// (bench/ui). It opens no first page of its own when given a profile folder, so RobotKit's
    /// launcher hands it `about:blank` (see `ChromeDriverService.writeChromiumLauncher`).
    public var isHeadlessShell: Bool {
        let name = (chromium as NSString).lastPathComponent
        return name.contains("headless-shell") || name.contains("headless_shell")
    }

    /// Whether Chromium is started through a launcher script: for the parent-death signal
    /// (`setpriv`) and for the headless shell's first page.
    public var needsLauncher: Bool { setpriv != nil || isHeadlessShell }

    /// Finds the tools; `CHROME_BIN` and `CHROMEDRIVER` override the search. The headless
    /// shell comes first: tests never need the full browser's window, only its engine.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(Missing) -> BrowserInstallation
    {
        switch (chromium(environment: environment), chromedriver(environment: environment)) {
        case (nil, nil):
            throw Missing(description: "chromium and chromedriver are not installed: \(installHint)")
        case (nil, _):
            throw Missing(description: "chromium is not installed (or set CHROME_BIN): \(installHint)")
        case (_, nil):
            throw Missing(description: "chromedriver is not installed (or set CHROMEDRIVER): \(installHint)")
        case (let chromium?, let driver?):
            return BrowserInstallation(chromium: chromium, chromedriver: driver)
        }
    }

    /// Chromium alone, for the DevTools engine (no chromedriver needed), or what to install.
    public static func locateChromium(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(Missing) -> String
    {
        guard let found = chromium(environment: environment) else {
            throw Missing(description: "chromium is not installed (or set CHROME_BIN): install it with `apt-get install chromium-headless-shell`")
        }
        return found
    }

    /// `CHROME_BIN`, else the headless shell, else the full browser; nil when none is installed.
    public static func chromium(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        Executables.find(
            override: environment["CHROME_BIN"],
            candidates: [
                "/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium",
                "/usr/lib/chromium-browser/chromium-browser",
            ],
            names: [
                "chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser", "google-chrome",
                "google-chrome-stable",
            ],
            environment: environment)
    }

    /// chromedriver alone (`CHROMEDRIVER`, Debian's `/usr/lib/chromium/chromedriver`, `PATH`):
    /// RobotKit's WebDriver engine starts it when no endpoint is given.
    public static func chromedriver(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        Executables.find(
            override: environment["CHROMEDRIVER"], candidates: ["/usr/lib/chromium/chromedriver"],
            names: ["chromedriver"], environment: environment)
    }
}
