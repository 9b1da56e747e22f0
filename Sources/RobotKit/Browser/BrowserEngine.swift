import Foundation
import WorkerContract

/// Where launched pages come from: Chromium over DevTools (`ChromiumBrowser`, the default) or
/// a W3C WebDriver server (`WebDriverBrowser`). `RobotKitProcess` picks one per process.
protocol BrowserEngine: AnyObject, Sendable {
    /// Opens a page for a launch, loading `url`: a fresh browser context, or under `.reset`
    /// the shard's kept page cleared, where the engine has them.
    func openPage(arguments: [String], url: String, isolation: BrowserIsolation) throws(RobotKitError) -> LaunchedPage
    /// Ends a launch: its context disposed, its session deleted, or the kept page let go.
    func close(_ page: LaunchedPage)
    /// The browser's main process, when the engine knows it.
    var browserProcessID: Int32? { get }
}

/// One launch's page: the engine's driver for it, and what the trace keeps of it.
/// Not `Sendable`: it belongs to the app that launched it.
final class LaunchedPage {
    private let pageDriver: PageDriver
    /// Chromium's browser context and target, when the engine has them.
    let contextID: String?
    let targetID: String?
    /// The shard's kept page (`isolation: reset`): closing it keeps it for the next launch.
    let kept: Bool
    /// The page's trace snapshot a traced query brought back, valid until the next command
    /// (which may change the page): `[html, text]` or `TraceSnapshot.unchanged`.
    private var traceSnapshot: Any?

    init(driver: PageDriver, contextID: String? = nil, targetID: String? = nil, kept: Bool = false) {
        self.pageDriver = driver
        self.contextID = contextID
        self.targetID = targetID
        self.kept = kept
    }

    /// The page's driver; taking it forgets the kept trace snapshot, since a command may change the page.
    var driver: PageDriver {
        traceSnapshot = nil
        return pageDriver
    }

    /// Whether the page's browser looked in trouble at its last command.
    var isSuspect: Bool { pageDriver.isSuspect }

    /// Keeps the snapshot a traced query's reply carries, for the step's trace.
    func keepTraceSnapshot(of reply: Any?) {
        traceSnapshot = (reply as? [String: Any])?["traceSnapshot"]
    }

    /// The snapshot a query of this step brought back, once; nil after any other command.
    func takeTraceSnapshot() -> Any? {
        defer { traceSnapshot = nil }
        return traceSnapshot
    }
}
