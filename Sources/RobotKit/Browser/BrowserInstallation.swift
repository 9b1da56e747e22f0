import Foundation

/// Where chromium, chromedriver and setpriv live on this machine.
struct BrowserInstallation: Sendable {
    /// The real chromium binary (the Debian `/usr/bin/chromium` script only adds start-up work).
    var chromium: String
    var chromedriver: String
    /// util-linux `setpriv`, used to give children a parent-death signal; `nil` when absent.
    var setpriv: String?

    static let installHint = "install them with `apt-get install chromium chromium-driver`"

    /// Finds the tools; `CHROME_BIN` and `CHROMEDRIVER` override the search.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(RobotKitError) -> BrowserInstallation
    {
        let chromium = find(
            override: environment["CHROME_BIN"],
            candidates: ["/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser"],
            names: ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"],
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
