/// One entry of `--browsers`: an engine robotci runs each planned test on.
///
/// `chromium` is the default engine: its runs keep the test's own id (browser nil), so a run
/// that names it alone, or beside others, shares its history with runs that named none. Every
/// other entry is named in the id (`[webkit]`, `[webdriver]`), even alone: a run of WebKit
/// alone must not read as, or mix its history with, a Chromium run.
public enum BrowserTarget: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Chromium over DevTools, the shard's warm browser (robotci's relay).
    case chromium
    /// WPE WebKit (`WPEWebDriver` + `cog`) over W3C WebDriver.
    case webkit
    /// A W3C WebDriver endpoint robotci does not start (Selenium Grid, a cloud grid, Appium).
    case webDriver(url: String)

    /// The forms `--browsers` accepts, for error messages.
    public static let acceptedForms = "`chromium`, `webkit`, `webdriver=URL` (an http(s) W3C WebDriver endpoint), comma-separated, e.g. `chromium,webkit`"

    /// The name a test id carries for this engine (`TestID.browser`); nil for the default one.
    public var idName: String? {
        switch self {
        case .chromium: nil
        case .webkit: "webkit"
        case .webDriver: "webdriver"
        }
    }

    /// The name people read (the console, the report's browser filter).
    public var name: String { idName ?? "chromium" }

    /// The target a test id's browser names (nil: Chromium), among `targets`.
    public static func target(named browser: String?, in targets: [BrowserTarget]) -> BrowserTarget? {
        targets.first { $0.idName == browser }
    }

    public var description: String {
        switch self {
        case .chromium, .webkit: name
        case .webDriver(let url): "webdriver=\(url)"
        }
    }

    /// Parses one entry; the error names the entry and the accepted forms.
    public init(parsing raw: String) throws {
        let text = raw.trimmingCharacters(in: .whitespaces)
        switch text.lowercased() {
        case "chromium":
            self = .chromium
            return
        case "webkit":
            self = .webkit
            return
        default: break
        }
        guard let equals = text.firstIndex(of: "="), text[..<equals].lowercased() == "webdriver" else {
            let hint = text.lowercased() == "webdriver" ? " (a WebDriver endpoint needs its URL: `webdriver=http://grid:4444/wd/hub`)" : ""
            throw ConfigError("browser '\(text)' is not one robotci knows\(hint); use \(Self.acceptedForms)")
        }
        let url = String(text[text.index(after: equals)...])
        let lower = url.lowercased()
        let rest = lower.hasPrefix("http://") ? lower.dropFirst(7) : lower.hasPrefix("https://") ? lower.dropFirst(8) : nil
        guard let rest, !rest.isEmpty, !rest.hasPrefix("/"), !url.contains(where: { $0.isWhitespace || $0 == "," }) else {
            throw ConfigError("browser '\(text)': '\(url)' is not an http(s) URL of a W3C WebDriver endpoint; write e.g. `webdriver=http://grid:4444/wd/hub`")
        }
        self = .webDriver(url: url)
    }

    /// Parses the whole list (`chromium,webkit`): at least one entry, none twice, at most one
    /// WebDriver endpoint (its runs are all named `webdriver`).
    public static func list(parsing entries: [String]) throws -> [BrowserTarget] {
        let parts = entries.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard !parts.isEmpty, !parts.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw ConfigError("'browsers' needs at least one browser: \(acceptedForms)")
        }
        var out: [BrowserTarget] = []
        for part in parts {
            guard !part.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ConfigError("'browsers' has an empty entry in '\(entries.joined(separator: ","))'; use \(acceptedForms)")
            }
            let target = try BrowserTarget(parsing: part)
            if out.contains(where: { $0.idName == target.idName }) {
                throw ConfigError("browser '\(target.name)' is listed twice in '\(entries.joined(separator: ","))'; each engine runs every test once"
                    + (target.idName == "webdriver" ? " (one WebDriver endpoint per run)" : ""))
            }
            out.append(target)
        }
        return out
    }
}
