import Foundation
import MockServer

/// `isolation: reset`: the shard keeps one browser context and page across launches, and each
/// launch clears what the last one left before it opens the app. A fresh context per launch
/// costs a new renderer process (8–10 % of a UI test's CPU on the example, bench/RESULTS.md); this keeps the
/// renderer warm.
///
/// What it clears, in this order (docs/isolation.md lists what it keeps):
/// 1. every other page of the context (pop-ups, `window.open` tabs) is closed;
/// 2. an open dialog is dismissed (on the kept page's own session, which saw it open); `window.name` and
///    the document's session storage are emptied from inside the page;
/// 3. the page goes to `about:blank` (leaving it even if it asks to stay), so no document
///    holds storage open: clearing under the open page does not hold, its timers and unload
///    handlers write again (`bench/ui/leave-cost`; the step costs about 50 ms of CPU);
/// 4. for every origin the context has reached (the URLs of its targets, frames, workers and
///    history): every kind of storage (`Storage.clearDataForOrigin` `all`: local storage,
///    IndexedDB, Cache Storage, service workers, file systems…) and the tab's session storage;
/// 5. the context's cookies and permissions, the HTTP cache;
/// 6. the history, the window's size;
/// 7. then the page opens `url`.
///
/// Commands that do not depend on one another go together (`DevToolsConnection.callAll`): the
/// browser clears storage, cookies and the cache on threads of their own. About 60 ms a
/// launch on the example, down from 75–85 ms one command after another (bench/RESULTS.md).
struct PageReset {
    /// The kept page, on its own DevTools session (kept across the shard's test processes).
    let page: DevToolsPage
    let contextID: String
    /// The size every launch's window starts at (`--window-size`), if known.
    let windowSize: (width: Int, height: Int)?

    /// Seconds each command may take: a page that does not answer is a browser in trouble.
    private let timeout: Double = 10

    private var devtools: DevToolsConnection { page.connection }
    private var targetID: String { page.targetID }

    func run(opening url: String) throws(RobotKitError) {
        // The reset answers the page's dialogs itself; none of them fails it.
        page.dialogsInterrupt = false
        defer { page.dialogsInterrupt = true }
        var origins = try closeOtherPages()
        let pageSession = page.session
        let commands = PageCommands(devtools: devtools, session: pageSession, timeout: timeout)
        // An alert the last test left open blocks the page: every command below would wait on
        // it. The session is the one that saw it open (kept across test processes), so it can
        // dismiss it; with none open the browser answers an error, which is ignored. Then what
        // the page reached, and (from inside it, one command instead of a DOMStorage.clear of
        // about 10 ms for the origin a test usually has) the document's name and session
        // storage emptied. Sent together.
        let look = try devtools.callAll([
            .init(method: "Page.handleJavaScriptDialog", params: ["accept": false], session: pageSession),
            .init(method: "Page.getNavigationHistory", session: pageSession),
            .init(method: "Page.getFrameTree", session: pageSession),
            .init(method: "Runtime.evaluate", params: [
                "expression": "window.name = ''; sessionStorage.clear(); true", "returnByValue": true, "timeout": 2_000,
            ], session: pageSession),
            .init(method: "Page.enable", session: pageSession),
        ], timeout: timeout, onEvent: commands.answerDialog)
        let history = try look[1].get()["entries"] as? [[String: Any]] ?? []
        origins.formUnion(history.compactMap { Self.origin(of: $0["url"] as? String) })
        let frames = (try look[2].get()["frameTree"] as? [String: Any]).map(Self.frameURLs) ?? []
        origins.formUnion(frames.compactMap(Self.origin(of:)))
        let clearedInside = (try? look[3].get()).flatMap { try? DevToolsPage.value(of: $0) } as? Bool == true
            ? frames.first.flatMap(Self.origin(of:)) : nil
        _ = try look[4].get()
        try commands.leave()
        try clear(origins: origins, clearedInside: clearedInside, session: pageSession, commands: commands)
        try commands.resetHistory()
        try commands("Page.navigate", ["url": url])
    }

    /// With no document of theirs left, everything the context holds is cleared at once.
    private func clear(origins: Set<String>, clearedInside: String?, session pageSession: String, commands: PageCommands)
        throws(RobotKitError)
    {
        var clears: [DevToolsConnection.Command] = []
        for origin in origins.sorted() {
            clears.append(.init(method: "Storage.clearDataForOrigin", params: ["origin": origin, "storageTypes": "all"], session: pageSession))
            // A tab's session storage is the page's, not the origin's: the other origins the
            // tab visited are cleared here (an origin that kept none answers an error).
            if origin != clearedInside {
                clears.append(.init(method: "DOMStorage.clear", params: [
                    "storageId": ["securityOrigin": origin, "isLocalStorage": false],
                ], session: pageSession))
            }
        }
        clears += [
            .init(method: "Storage.clearCookies", params: ["browserContextId": contextID]),
            .init(method: "Browser.resetPermissions", params: ["browserContextId": contextID]),
            .init(method: "Network.clearBrowserCache", session: pageSession),
        ]
        if windowSize != nil { clears.append(.init(method: "Browser.getWindowForTarget", params: ["targetId": targetID])) }
        let answers = try devtools.callAll(clears, timeout: timeout, onEvent: commands.answerDialog)
        for (command, answer) in zip(clears, answers) where command.method != "DOMStorage.clear" { _ = try answer.get() }
        if windowSize != nil { try resetWindowSize(window: try answers[answers.count - 1].get()) }
    }

    /// Closes the context's pages but the kept one; the origins of everything the context
    /// still shows (pages, frames and workers as targets). Throws when the kept page is gone.
    private func closeOtherPages() throws(RobotKitError) -> Set<String> {
        let targets = try devtools.call("Target.getTargets", timeout: timeout)["targetInfos"] as? [[String: Any]] ?? []
        let mine = targets.filter { $0["browserContextId"] as? String == contextID }
        guard mine.contains(where: { $0["targetId"] as? String == targetID }) else {
            throw .webDriver(code: "no such window", "the kept page \(targetID) is gone")
        }
        for target in mine where target["type"] as? String == "page" {
            guard let id = target["targetId"] as? String, id != targetID else { continue }
            _ = try? devtools.call("Target.closeTarget", ["targetId": id], timeout: timeout)
        }
        return Set(mine.compactMap { Self.origin(of: $0["url"] as? String) })
    }

    /// Commands to the kept page, on a flat session of RobotKit's DevTools socket.
    private struct PageCommands {
        let devtools: DevToolsConnection
        let session: String
        let timeout: Double

        @discardableResult
        func callAsFunction(_ command: String, _ params: [String: Any] = [:]) throws(RobotKitError) -> [String: Any] {
            try devtools.call(command, params, session: session, timeout: timeout)
        }

        /// Forgets the tab's history. Right after a cross-process commit, the session may be
        /// between two frame hosts for a moment ("Not attached to an active page"): asked again.
        func resetHistory() throws(RobotKitError) {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                do throws(RobotKitError) {
                    try self("Page.resetNavigationHistory")
                    return
                } catch where "\(error)".contains("Not attached to an active page") && Date() < deadline {
                    usleep(5_000)
                }
            }
        }

        /// A dialog the page opens while it is reset: a page that asks before it is left
        /// (`beforeunload`, which a page may raise after a click) is left ("leave"), any other
        /// dialog is dismissed. The page domain must be on.
        func answerDialog(_ event: String, _ params: [String: Any]) throws(RobotKitError) {
            guard event == "Page.javascriptDialogOpening" else { return }
            let accept = params["type"] as? String == "beforeunload"
            try devtools.sendOnly("Page.handleJavaScriptDialog", ["accept": accept], session: session)
        }

        /// Goes to `about:blank`, answering its dialogs (`answerDialog`). Returns once
        /// `about:blank` is the page's document (`Page.navigate` answers before
        /// that, and the page's commands fail meanwhile with "Not attached to an active page").
        /// The page domain must be on (`Page.enable`) for the dialog and the commit to be seen.
        func leave() throws(RobotKitError) {
            var committed = false
            let watch = { (event: String, params: [String: Any]) throws(RobotKitError) -> Bool in
                if event == "Page.frameNavigated", let frame = params["frame"] as? [String: Any], frame["parentId"] == nil,
                    frame["url"] as? String == "about:blank" {
                    committed = true
                } else {
                    try answerDialog(event, params)
                }
                return committed
            }
            try devtools.call("Page.navigate", ["url": "about:blank"], session: session, timeout: timeout) {
                (event, params) throws(RobotKitError) in _ = try watch(event, params)
            }
            if !committed { try devtools.awaitEvent(timeout: timeout, until: watch) }
        }
    }

    /// Puts the window back to `windowSize` when the last test changed it; `window` is the
    /// page's `Browser.getWindowForTarget`.
    private func resetWindowSize(window: [String: Any]) throws(RobotKitError) {
        guard let windowSize else { return }
        guard let id = window["windowId"], let bounds = window["bounds"] as? [String: Any] else { return }
        let width = (bounds["width"] as? NSNumber)?.intValue, height = (bounds["height"] as? NSNumber)?.intValue
        let state = bounds["windowState"] as? String ?? "normal"
        guard width != windowSize.width || height != windowSize.height || state != "normal" else { return }
        if state != "normal" {
            try devtools.call("Browser.setWindowBounds", ["windowId": id, "bounds": ["windowState": "normal"]], timeout: timeout)
        }
        try devtools.call(
            "Browser.setWindowBounds", ["windowId": id, "bounds": ["width": windowSize.width, "height": windowSize.height]],
            timeout: timeout)
    }

    /// The URLs of a frame tree's frames.
    static func frameURLs(_ tree: [String: Any]) -> [String] {
        let own = ((tree["frame"] as? [String: Any])?["url"] as? String).map { [$0] } ?? []
        let children = tree["childFrames"] as? [[String: Any]] ?? []
        return own + children.flatMap(frameURLs)
    }

    /// The origin whose storage `url` uses: `scheme://host[:port]` for http(s), `file://` for
    /// files; nil for URLs that have none of their own (`about:`, `data:`, `blob:`…).
    static func origin(of url: String?) -> String? {
        url.flatMap { URL(string: $0) }.flatMap(MockServer.origin(ofPage:))
    }

    /// `--window-size=W,H` among Chromium's switches.
    static func windowSize(in arguments: [String]) -> (width: Int, height: Int)? {
        guard let value = arguments.last(where: { $0.hasPrefix("--window-size=") })?.dropFirst("--window-size=".count) else {
            return nil
        }
        let parts = value.split(separator: ",").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
}
