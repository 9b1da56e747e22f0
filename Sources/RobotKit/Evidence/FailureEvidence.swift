import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockServer
import ProcessToolkit
import WorkerContract
import StandardStreams

/// The apps that are running, and the test each was launched in, so that a test's first
/// failure saves the evidence of every live app it has, whatever the test's base class
/// (`UITestCase`, a plain `XCTestCase` launching `XCUIApplication()`, a Swift Testing
/// `@Test` with the ``Testing/Trait/failureEvidence`` trait): screenshot, accessibility
/// tree, page HTML and console log of each app, and the journal of each running
/// `MockServer`. Captured when the failure is recorded, before `tearDown` can terminate
/// the app.
final class FailureEvidence: Sendable {
    private struct LiveApp {
        weak var app: WebApp?
        /// The test that launched it; `nil` when launched outside a test (class setUp).
        let owner: String?
    }

    private struct State {
        var live: [LiveApp] = []
        /// Tests whose first failure has been captured.
        var captured: Set<String> = []
    }

    private let state = Locked(State())

    /// Called by `WebApp.launch()`: `app` now belongs to the running test (`owner`).
    func launched(_ app: WebApp, owner: String? = nil) {
        RobotKitTestObserver.register()
        let owner = owner ?? TestIdentity.current
        state.withLock { s in
            s.live.removeAll { $0.app == nil || $0.app === app }
            s.live.append(LiveApp(app: app, owner: owner))
        }
    }

    /// Called when an app terminates.
    func terminated(_ app: WebApp) {
        state.withLock { $0.live.removeAll { $0.app == nil || $0.app === app } }
    }

    /// Forgets what was captured for `test` (a new test, or a retry, starts clean).
    func reset(_ test: String) {
        state.withLock { _ = $0.captured.remove(test) }
    }

    /// Whether `test`'s first failure was captured.
    func hasCaptured(_ test: String) -> Bool {
        state.withLock { $0.captured.contains(test) }
    }

    /// At `test`'s first failure: writes the evidence of the apps it launched (and of apps
    /// launched outside any test) that are still running, and the journals of the running
    /// mock servers. Later failures of the same test write nothing. Returns the problems.
    @discardableResult
    func captureFirstFailure(of test: String, into directory: URL) -> [String] {
        let apps: [WebApp]? = state.withLock { s in
            guard !s.captured.contains(test) else { return nil }
            s.captured.insert(test)
            return s.live.filter { $0.owner == nil || $0.owner == test }.compactMap(\.app)
        }
        guard let apps else { return [] }
        var problems: [String] = []
        let running = apps.filter { $0.state == .runningForeground }
        for (index, app) in running.enumerated() {
            problems += FailureArtifacts.writeEvidence(of: app, suffix: index == 0 ? "" : "-\(index + 1)", to: directory)
        }
        if !apps.isEmpty {
            problems += MockServer.writeRunningJournals()
        }
        return problems
    }

    /// Where a test's evidence goes: the attempt's `ROBOTCI_ARTIFACTS_DIR` under robotci, else
    /// a new `$TMPDIR/robotkit-evidence-TEST-XXXXXX` (mkdtemp: a name no other user can hold
    /// first or predict, mode 0700, like the browser's scratch folders). A fresh folder replaces
    /// this user's earlier ones of the same test, so repeated runs do not pile up.
    static func directory(for test: String, fresh: Bool = false) -> URL {
        if let directory = WorkerEnvironment().artifactsDirectory { return directory }
        let safe = String(test.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") ? $0 : "_" }.prefix(120))
        let temporary = FileManager.default.temporaryDirectory
        let prefix = "robotkit-evidence-\(safe)-"
        if fresh { removeEarlierFolders(in: temporary, prefix: prefix) }
        // Nowhere private to write: the evidence is lost, not exposed. The error says where.
        return PrivateFolder.make(prefix: prefix) ?? temporary.appendingPathComponent(prefix + "unwritable", isDirectory: true)
    }

    /// Removes `prefix` + six characters folders that this user owns (never another user's,
    /// never through a symbolic link).
    private static func removeEarlierFolders(in temporary: URL, prefix: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for entry in entries where entry.hasPrefix(prefix) && entry.utf8.count == prefix.utf8.count + 6 {
            let path = temporary.appendingPathComponent(entry).path
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == getuid() else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Tells a person running outside robotci where the evidence went.
    static func announce(_ test: String, _ directory: URL, problems: [String]) {
        for problem in problems {
            StandardStream.error.write("RobotKit: \(problem)\n")
        }
        if !WorkerEnvironment().isUnderRobotCI {
            print("RobotKit: failure evidence of \(test) is in \(directory.path)")
        }
    }
}
