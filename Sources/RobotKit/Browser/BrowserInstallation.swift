import Foundation

/// Where chromium, chromedriver and setpriv live on this machine.
struct BrowserInstallation: Sendable {
    /// The real chromium binary (the Debian `/usr/bin/chromium` script only adds start-up work):
    /// Chromium's headless shell when it is installed, else the full browser.
    var chromium: String
    var chromedriver: String
    /// util-linux `setpriv`, used to give children a parent-death signal; `nil` when absent.
    var setpriv: String?

    static let installHint = "install them with `apt-get install chromium-headless-shell chromium-driver`"

    /// True when `chromium` is Chromium's headless shell (`chrome-headless-shell`, Debian's
    /// `chromium-headless-shell`): the browser without its desktop layer, which a test never
    /// shows. On the bundled example it costs about a third of the full browser's CPU per test
    /// (bench/ui). It opens no first page of its own when given a profile folder, so the
    /// launcher hands it `about:blank` (see `ChromeDriverService.writeChromiumLauncher`).
    var isHeadlessShell: Bool {
        let name = (chromium as NSString).lastPathComponent
        return name.contains("headless-shell") || name.contains("headless_shell")
    }

    /// Whether Chromium is started through a launcher script: for the parent-death signal
    /// (`setpriv`) and for the headless shell's first page.
    var needsLauncher: Bool { setpriv != nil || isHeadlessShell }

    /// Finds the tools; `CHROME_BIN` and `CHROMEDRIVER` override the search. The headless
    /// shell comes first: tests never need the full browser's window, only its engine.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(RobotKitError) -> BrowserInstallation
    {
        let chromium = find(
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
        let driver = find(
            override: environment["CHROMEDRIVER"], candidates: ["/usr/lib/chromium/chromedriver"],
            names: ["chromedriver"], environment: environment)
        switch (chromium, driver) {
        case (nil, nil):
            throw .missingTool("chromium and chromedriver are not installed: \(installHint)")
        case (nil, _):
            throw .missingTool("chromium is not installed (or set CHROME_BIN): \(installHint)")
        case (_, nil):
            throw .missingTool("chromedriver is not installed (or set CHROMEDRIVER): \(installHint)")
        case (let chromium?, let driver?):
            let setpriv = find(override: nil, candidates: [], names: ["setpriv"], environment: environment)
            return BrowserInstallation(chromium: chromium, chromedriver: driver, setpriv: setpriv)
        }
    }

    private static func find(
        override: String?, candidates: [String], names: [String], environment: [String: String]
    ) -> String? {
        let files = FileManager.default
        if let override, !override.isEmpty {
            return files.isExecutableFile(atPath: override) ? override : nil
        }
        if let hit = candidates.first(where: files.isExecutableFile(atPath:)) { return hit }
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for name in names {
            for directory in path where files.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }
}
