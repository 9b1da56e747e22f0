import Foundation
import WorkerContract

/// The `ROBOTCI_*` variables robotci sets for each shard, with the fallbacks used under plain `swift test`.
public struct WorkerEnvironment: Sendable, Equatable {
    /// `ROBOTCI_WEBDRIVER_PORT`: where a chromedriver RobotKit starts (the WebDriver engine)
    /// listens; `nil` picks a free port.
    public var webDriverPort: Int?
    /// `ROBOTCI_MOCK_PORT`: the worker's mock-server port (MockServer reads it itself).
    public var mockPort: Int?
    /// `ROBOTCI_ARTIFACTS_DIR`: where a test's artifacts go, flat; `nil` outside robotci.
    public var artifactsDirectory: URL?
    /// `ROBOTCI_ATTEMPT`: 1 for the first try, 2… for retries.
    public var attempt: Int
    /// `ROBOTCI_REPETITION`: with `robotci run --repeat-each`/`--until-failure`, which
    /// repetition (1…N) this process runs; `nil` otherwise.
    public var repetition: Int?
    /// `ROBOTCI_WORKER_INDEX`: the shard, 0 outside robotci.
    public var shardIndex: Int
    /// `ROBOTCI_RUN_ID`: unique per robotci run; `nil` outside robotci.
    public var runID: String?
    /// `ROBOTCI_WEBDRIVER_URL`: a W3C WebDriver endpoint to drive instead of Chromium over
    /// DevTools (a Selenium Grid, Appium); `nil` for the default engine.
    public var webDriverURL: String?
    /// `ROBOTCI_WEBKIT_DRIVER_URL`: the shard's warm WPEWebDriver, which robotci started (in the
    /// shard's namespace) and keeps across the shard's processes; `nil`: RobotKit starts its own.
    public var webKitDriverURL: String?
    /// `ROBOTCI_BROWSER_SOCKET`: the shard's warm Chromium, relayed by robotci over a Unix
    /// socket only the run's user can open; `nil` when RobotKit starts its own.
    public var browserSocket: String?
    /// `ROBOTCI_BROWSER_DIR`: a folder that lives as long as the shard's browser, where
    /// RobotKit records the shard's kept page.
    public var browserDirectory: URL?
    /// `ROBOTCI_TRACE`: whether RobotKit records a step trace (`on-failure` when unset).
    public var trace: TraceMode
    /// `ROBOTCI_ISOLATION` (or `ROBOTKIT_ISOLATION` outside robotci): a fresh browser context
    /// per launch (`context`, the default) or the kept page reset (`reset`).
    public var isolation: BrowserIsolation
    /// `ROBOTCI_BROWSER` (or `ROBOTKIT_BROWSER` outside robotci): `chromium` (the default, over
    /// DevTools) or `webkit` (WPE WebKit over the WebDriver server RobotKit starts); any other
    /// name fails each launch, saying which names exist.
    public var browser: String
    /// `ROBOTCI_UPDATE_SNAPSHOTS`: which snapshot baselines `verifySnapshot` writes (`none` when unset).
    public var updateSnapshots: SnapshotUpdate
    /// `ROBOTCI_SNAPSHOT_TOLERANCE`: the colour tolerance (0…1) of a snapshot check that sets none.
    public var snapshotTolerance: Double?
    /// `ROBOTCI_SNAPSHOT_RECORDS`: the run's list of baselines its attempts recorded (nil
    /// outside robotci: there each process is a run of its own).
    public var snapshotRecords: URL?

    /// Reads the variables from `environment` (the process environment by default).
    public init(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        func int(_ v: WorkerVariable) -> Int? { environment[v.name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        func string(_ v: WorkerVariable) -> String? { environment[v.name].flatMap { $0.isEmpty ? nil : $0 } }
        webDriverPort = int(.webDriverPort)
        mockPort = int(.mockPort)
        artifactsDirectory = string(.artifactsDirectory).map { URL(fileURLWithPath: $0, isDirectory: true) }
        attempt = int(.attempt) ?? 1
        repetition = int(.repetition)
        shardIndex = int(.shardIndex) ?? 0
        runID = string(.runID)
        webDriverURL = string(.webDriverURL)
        webKitDriverURL = string(.webKitDriverURL)
        browserSocket = string(.browserSocket)
        browserDirectory = string(.browserDirectory).map { URL(fileURLWithPath: $0, isDirectory: true) }
        trace = string(.trace).flatMap(TraceMode.init(rawValue:)) ?? .onFailure
        browser = (string(.browser) ?? environment["ROBOTKIT_BROWSER"].flatMap { $0.isEmpty ? nil : $0 } ?? "chromium")
            .lowercased()
        updateSnapshots = string(.updateSnapshots).flatMap(SnapshotUpdate.init(rawValue:)) ?? .none
        snapshotTolerance = string(.snapshotTolerance).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        snapshotRecords = string(.snapshotRecords).map { URL(fileURLWithPath: $0) }
        isolation = (string(.isolation) ?? environment["ROBOTKIT_ISOLATION"]).flatMap(BrowserIsolation.init(rawValue:)) ?? .context
    }

    /// True when running under `robotci run`.
    public var isUnderRobotCI: Bool { artifactsDirectory != nil || runID != nil }
}
