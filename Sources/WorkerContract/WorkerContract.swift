/// What robotci and the code that runs inside its worker processes (RobotKit, MockServer,
/// any test) agree on: the environment robotci sets for each batch, the files a test leaves
/// in its artifacts folder, and what kind of artifact each file is. One place, no
/// dependencies, so the runner, RobotKit, MockServer and the report read the same names.

/// The `ROBOTCI_*` variables robotci sets for every batch process (the worker protocol: docs/cli.md, *What each worker gets*).
public enum WorkerVariable: String, CaseIterable, Sendable {
    /// 0..shards-1, stable for a shard across its processes.
    case shardIndex = "ROBOTCI_WORKER_INDEX"
    /// The shard's mock-server port (`MockServer.create()` listens there).
    case mockPort = "ROBOTCI_MOCK_PORT"
    /// The shard's port for a WebDriver server RobotKit starts itself (the WebDriver engine).
    case webDriverPort = "ROBOTCI_WEBDRIVER_PORT"
    /// A W3C WebDriver endpoint RobotKit drives instead of the shard's Chromium (a grid).
    case webDriverURL = "ROBOTCI_WEBDRIVER_URL"
    /// The shard's warm Chromium: a Unix socket robotci relays to the browser's DevTools pipe
    /// (kept across the shard's batches; only the run's user can open it).
    case browserSocket = "ROBOTCI_BROWSER_SOCKET"
    /// A folder that lives as long as the shard's browser (RobotKit keeps the kept page's ids there).
    case browserDirectory = "ROBOTCI_BROWSER_DIR"
    /// The shard's warm WPEWebDriver (`--browsers webkit`), which robotci started in the shard's
    /// namespace and keeps across the shard's batches: RobotKit drives it instead of starting one.
    case webKitDriverURL = "ROBOTCI_WEBKIT_DRIVER_URL"
    /// Where a test leaves its artifacts (flat; robotci moves them into the report).
    case artifactsDirectory = "ROBOTCI_ARTIFACTS_DIR"
    /// 1 for a test's first run, 2… for retries.
    case attempt = "ROBOTCI_ATTEMPT"
    /// With `--repeat-each`/`--until-failure`: which repetition (1…N) the batch runs; unset otherwise.
    case repetition = "ROBOTCI_REPETITION"
    /// Unique per robotci run.
    case runID = "ROBOTCI_RUN_ID"
    /// `driver: command`: where the batch's runner must write JUnit XML.
    case junitPath = "ROBOTCI_JUNIT_PATH"
    /// `--trace`: `off`, `on-failure` or `always` (`TraceMode`); whether RobotKit records a step trace.
    case trace = "ROBOTCI_TRACE"
    /// `--isolation`: `context` or `reset` (`BrowserIsolation`); what RobotKit gives each launch.
    case isolation = "ROBOTCI_ISOLATION"
    /// The shard's browser: `chromium` (default) or `webkit`; RobotKit picks its engine from it.
    case browser = "ROBOTCI_BROWSER"
    /// `--update-snapshots`: `none`, `missing` or `all` (`SnapshotUpdate`); which snapshot baselines RobotKit writes.
    case updateSnapshots = "ROBOTCI_UPDATE_SNAPSHOTS"
    /// `--snapshot-tolerance`: the colour distance (0…1) a snapshot's pixel may move by default.
    case snapshotTolerance = "ROBOTCI_SNAPSHOT_TOLERANCE"
    /// A file of the run (one line a baseline path) listing the snapshot baselines this run's
    /// attempts recorded under `--update-snapshots none`: a retry does not pass against one.
    case snapshotRecords = "ROBOTCI_SNAPSHOT_RECORDS"

    /// The variable's name in the environment.
    public var name: String { rawValue }
}

/// `--isolation` / `ROBOTCI_ISOLATION`: what separates one launch of the app from the last
/// in a shard's warm browser (docs/isolation.md).
public enum BrowserIsolation: String, CaseIterable, Sendable, Codable {
    /// A fresh browser context per launch: nothing of an earlier launch is there (default).
    case context
    /// One page per shard, reset between launches: cookies, storages, caches, service workers,
    /// permissions, other pages, history and window size cleared; cheaper (no new renderer),
    /// and what it keeps is listed in docs/isolation.md.
    case reset
}

/// `--update-snapshots` / `ROBOTCI_UPDATE_SNAPSHOTS`: which baselines `verifySnapshot` writes
/// (docs/RobotKit.md, *Snapshots*).
public enum SnapshotUpdate: String, CaseIterable, Sendable, Codable {
    /// A missing baseline is written and the test fails saying so; a mismatch fails (default).
    case none
    /// A missing baseline is written and the check passes; a mismatch fails.
    case missing
    /// Every compared snapshot is written as the new baseline and passes.
    case all
}

/// File names RobotKit and MockServer write into `ROBOTCI_ARTIFACTS_DIR`.
public enum ArtifactFile {
    /// Every robot step of the test (always written).
    public static let steps = "steps.json"
    /// The requests the test's mock server received.
    public static let mockRequests = "mock-requests.json"
    /// The page at the failure.
    public static let screenshot = "screenshot.png"
    /// The accessibility tree at the failure.
    public static let accessibility = "accessibility.txt"
    /// The page's HTML at the failure.
    public static let page = "page.html"
    /// The browser console at the failure.
    public static let console = "console.log"
    /// A failed accessibility audit's issues (type, descriptions, element), in order.
    public static let accessibilityAudit = "accessibility-audit.json"
    /// The page at a failed accessibility audit, each issue's element outlined and numbered.
    public static let accessibilityAuditScreenshot = "accessibility-audit.png"
    /// How a failed snapshot's files begin: `snapshot-<test>.<name>.json` and its
    /// `-expected.png`, `-actual.png`, `-diff.png`.
    public static let snapshotPrefix = "snapshot-"
}

/// What an artifact is, for the report (how it is shown, whether it is inlined).
public enum ArtifactKind: String, CaseIterable, Sendable, Codable {
    case steps, mock, accessibility, console, screenshot, html, log, other
    /// An attempt's step trace: the path names its `trace.json`, the files it names sit beside it.
    case trace
    /// A failed accessibility audit's issues (`accessibility-audit.json`).
    case audit
    /// A failed snapshot check (`snapshot-<test>.<name>.json`): what differed, the baseline, the
    /// command that accepts it, and the names of its expected, actual and diff PNGs.
    case snapshot

    /// The kind a file a test left stands for, by its name.
    public init(fileName original: String) {
        let name = original.lowercased()
        switch name {
        case ArtifactFile.steps: self = .steps
        case ArtifactFile.mockRequests: self = .mock
        case ArtifactFile.accessibility: self = .accessibility
        case ArtifactFile.console: self = .console
        case ArtifactFile.accessibilityAudit: self = .audit
        default:
            if name.hasPrefix("accessibility-audit") && name.hasSuffix(".json") {
                // A test's second app writes `accessibility-audit-2.json`.
                self = .audit
            } else if name.hasPrefix(ArtifactFile.snapshotPrefix) && name.hasSuffix(".json") {
                self = .snapshot
            } else if name.hasSuffix(".png") || name.hasSuffix(".jpg") || name.hasSuffix(".jpeg") {
                self = .screenshot
            } else if name.hasSuffix(".html") {
                self = .html
            } else if name.hasSuffix(".log") {
                self = .log
            } else {
                self = .other
            }
        }
    }

    /// A kind a newer robotci wrote reads as `other` (the file is still linked).
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = ArtifactKind(rawValue: text) ?? .other
    }
}

/// Names of files and folders made from test names: Linux file systems refuse a name over 255
/// bytes, and a test name in CJK (3 bytes a character) passes that at 86 characters.
public enum BoundedFileName {
    /// Bytes a readable part may use (a hash suffix and a few more fit under 255).
    public static let readableBytes = 120

    /// `text` cut at a character boundary so it is at most `maxBytes` UTF-8 bytes.
    public static func prefix(_ text: String, maxBytes: Int = readableBytes) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var out = ""
        var used = 0
        for ch in text {
            let size = ch.utf8.count
            if used + size > maxBytes { break }
            out.append(ch)
            used += size
        }
        return out
    }

    /// `text` as it is when it fits, else its prefix and an FNV-1a hash of the whole, so two
    /// long names that share a prefix stay apart.
    public static func bounded(_ text: String, maxBytes: Int = readableBytes) -> String {
        guard text.utf8.count > maxBytes else { return text }
        return prefix(text, maxBytes: maxBytes - 9) + "-" + hash(text)
    }

    /// FNV-1a (32 bits) of the UTF-8 bytes, 8 hex digits: the same on every machine and run.
    public static func hash(_ text: String) -> String {
        var h: UInt32 = 2_166_136_261
        for byte in text.utf8 { h = (h ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

/// Request headers that carry credentials: kept out of `mock-requests.json` and the report
/// (which inlines that file), with enough left to debug by (`Bearer ***`, `session=***`).
public enum SensitiveHeader {
    /// Lower-case names.
    public static let names: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token", "x-amz-security-token",
    ]

    public static func isSensitive(_ name: String) -> Bool { names.contains(name.lowercased()) }

    /// `value` with its secret parts masked: an authorization's scheme stays (`Basic ***`), a
    /// cookie's names and attributes stay (`id=***; Path=/`); any other header is unchanged.
    public static func masked(name: String, value: String) -> String {
        switch name.lowercased() {
        case "authorization", "proxy-authorization":
            guard let space = value.firstIndex(of: " ") else { return "***" }
            return value[..<space] + " ***"
        case "cookie", "set-cookie":
            let attributes: Set<String> = ["path", "domain", "expires", "max-age", "samesite", "secure", "httponly", "partitioned", "priority"]
            return value.split(separator: ";", omittingEmptySubsequences: false).map { part -> String in
                guard let equals = part.firstIndex(of: "=") else { return String(part) }
                let key = part[..<equals]
                if attributes.contains(key.drop(while: { $0 == " " }).lowercased()) { return String(part) }
                return key + "=***"
            }.joined(separator: ";")
        default:
            return isSensitive(name) ? "***" : value
        }
    }

    /// Every header of a request, sensitive ones masked.
    public static func masked(_ headers: [String: String]) -> [String: String] {
        var out = headers
        for (name, value) in headers where isSensitive(name) { out[name] = masked(name: name, value: value) }
        return out
    }
}
