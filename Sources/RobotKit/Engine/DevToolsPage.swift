import Foundation

/// One page of Chromium driven over the DevTools protocol: a flat session of the browser's
/// connection (`Target.attachToTarget` with `flatten`). Every command is one message on that
/// connection; independent ones go together (a click's move, press and release are one round
/// trip; chromedriver made several, with two `Page.getFrameTree` per pointer action).
///
/// Dialogs: the page's `alert`, `confirm` and `prompt` are dismissed as they open, and the
/// command that was waiting on the page fails with `unexpected alert open` (WebDriver's
/// "dismiss and notify", which RobotKit kept before). A `beforeunload` question is answered
/// "leave". Console messages and uncaught exceptions are kept until `console()` takes them.
final class DevToolsPage: PageDriver {
    let connection: DevToolsConnection
    let session: String
    let targetID: String
    private(set) var isSuspect = false
    /// Whether a dialog fails the command waiting on the page (off while `PageReset` answers them).
    var dialogsInterrupt = true
    private var messages: [BrowserLogEntry] = []
    /// Where the pointer is, for presses that do not move it.
    private var pointerAt: (x: Double, y: Double) = (0, 0)

    var engineName: String { "chromium over devtools" }

    /// A page on `session` (attached, its `Page` and `Runtime` domains on: `DevToolsPage.attach`).
    init(connection: DevToolsConnection, session: String, targetID: String) {
        self.connection = connection
        self.session = session
        self.targetID = targetID
        connection.onEvent(session: session) { [weak self] event, params in self?.handle(event, params) }
    }

    /// Attaches to `targetID` and turns on the domains a page needs (one more round trip).
    static func attach(_ connection: DevToolsConnection, targetID: String, timeout: TimeInterval = 10)
        throws(RobotKitError) -> DevToolsPage
    {
        let attached = try connection.call("Target.attachToTarget", ["targetId": targetID, "flatten": true], timeout: timeout)
        guard let session = attached["sessionId"] as? String else {
            throw .webDriver(code: "devtools error", "Target.attachToTarget returned no session id")
        }
        let page = DevToolsPage(connection: connection, session: session, targetID: targetID)
        try page.enable(timeout: timeout)
        return page
    }

    /// Turns on the page's events (dialogs, console); a session another process attached
    /// already has them, and asking again costs nothing.
    func enable(timeout: TimeInterval = 10) throws(RobotKitError) {
        for answer in try command([.init(method: "Page.enable"), .init(method: "Runtime.enable")], timeout: timeout) {
            _ = try answer.get()
        }
    }

    /// Stops listening (the page's context is going, or another process takes the page).
    func detachHandlers() {
        connection.onEvent(session: session, nil)
    }

    func evaluate(_ expression: String, awaitPromise: Bool, timeout: Double?) throws(RobotKitError) -> Any? {
        var params: [String: Any] = ["expression": expression, "returnByValue": true, "awaitPromise": awaitPromise]
        // A pointer's actions count as the user's; so does a script, for APIs that ask (clipboard, fullscreen).
        params["userGesture"] = true
        let reply = try command([.init(method: "Runtime.evaluate", params: params)], timeout: timeout ?? 60)[0].get()
        return try Self.value(of: reply)
    }

    /// The value of a `Runtime.evaluate` reply made with `returnByValue` (nil for null or
    /// undefined); its exception as a `javascript error`.
    static func value(of reply: [String: Any]) throws(RobotKitError) -> Any? {
        if let details = reply["exceptionDetails"] as? [String: Any] {
            let exception = details["exception"] as? [String: Any]
            let text = exception?["description"] as? String ?? details["text"] as? String ?? "an exception"
            throw .webDriver(code: "javascript error", "evaluate failed (javascript error): \(text)")
        }
        let answer = (reply["result"] as? [String: Any])?["value"]
        return answer is NSNull ? nil : answer
    }

    func pointer(_ actions: [PointerAction]) throws(RobotKitError) {
        var batch: [DevToolsConnection.Command] = []
        func flush() throws(RobotKitError) {
            guard !batch.isEmpty else { return }
            for answer in try command(batch) { _ = try answer.get() }
            batch = []
        }
        for action in actions {
            switch action {
            case .move(let x, let y, let duration):
                // A timed move goes in steps a page can follow (drags read intermediate moves).
                let steps = duration > 0 ? max(Int(duration / 0.016), 1) : 1
                let from = pointerAt
                for step in 1...steps {
                    let share = Double(step) / Double(steps)
                    batch.append(mouse("mouseMoved", x: from.x + (x - from.x) * share, y: from.y + (y - from.y) * share,
                                       buttons: batchButtons(actions, upTo: action)))
                    if duration > 0 {
                        try flush()
                        usleep(useconds_t(duration / Double(steps) * 1_000_000))
                    }
                }
                pointerAt = (x, y)
            case .down(let clicks):
                batch.append(mouse("mousePressed", x: pointerAt.x, y: pointerAt.y, clickCount: clicks, buttons: 1))
            case .up(let clicks):
                batch.append(mouse("mouseReleased", x: pointerAt.x, y: pointerAt.y, clickCount: clicks, buttons: 0))
            case .pause(let seconds):
                try flush()
                usleep(useconds_t(max(seconds, 0) * 1_000_000))
            }
        }
        try flush()
    }

    /// 1 while the button is held at `action` (a drag's moves), else 0.
    private func batchButtons(_ actions: [PointerAction], upTo action: PointerAction) -> Int {
        var held = 0
        for step in actions {
            if step == action { break }
            if case .down = step { held = 1 }
            if case .up = step { held = 0 }
        }
        return held
    }

    private func mouse(_ type: String, x: Double, y: Double, clickCount: Int = 0, buttons: Int) -> DevToolsConnection.Command {
        var params: [String: Any] = ["type": type, "x": x, "y": y, "buttons": buttons]
        if type != "mouseMoved" {
            params["button"] = "left"
            params["clickCount"] = clickCount
        } else if buttons != 0 {
            params["button"] = "left"
        }
        return .init(method: "Input.dispatchMouseEvent", params: params, session: session)
    }

    func keys(_ strokes: [KeyStroke], modifiers: KeyModifiers) throws(RobotKitError) {
        var batch: [DevToolsConnection.Command] = []
        var held = 0
        for modifier in modifiers.strokes {
            held |= KeyModifiers.bit(of: modifier)
            batch.append(key("rawKeyDown", modifier, modifiers: held))
        }
        for stroke in strokes {
            // A key that types goes down as `keyDown` (Chromium then sends keypress and input);
            // one that types nothing as `rawKeyDown`, as a real keyboard's does.
            batch.append(key(stroke.text.isEmpty || held & ~KeyModifiers.shift.rawValue != 0 ? "rawKeyDown" : "keyDown",
                             stroke, modifiers: held))
            batch.append(key("keyUp", stroke, modifiers: held))
        }
        for modifier in modifiers.strokes.reversed() {
            held &= ~KeyModifiers.bit(of: modifier)
            batch.append(key("keyUp", modifier, modifiers: held))
        }
        for answer in try command(batch) { _ = try answer.get() }
    }

    private func key(_ type: String, _ stroke: KeyStroke, modifiers: Int) -> DevToolsConnection.Command {
        var params: [String: Any] = [
            "type": type, "key": stroke.key, "code": stroke.code, "windowsVirtualKeyCode": stroke.keyCode,
            "nativeVirtualKeyCode": stroke.keyCode, "modifiers": modifiers,
        ]
        if type == "keyDown" {
            params["text"] = stroke.text
            params["unmodifiedText"] = stroke.text
        }
        // Headless Chromium runs no platform shortcut table: the editing command rides along.
        if type == "rawKeyDown", modifiers & (KeyModifiers.control.rawValue | KeyModifiers.meta.rawValue) != 0,
            let command = Self.shortcuts[stroke.key.lowercased()]
        {
            params["commands"] = [command]
        }
        return .init(method: "Input.dispatchKeyEvent", params: params, session: session)
    }

    /// The editing commands of Ctrl (or ⌘) with a letter, as a desktop browser has them.
    private static let shortcuts = ["a": "selectAll", "c": "copy", "x": "cut", "v": "paste", "z": "undo", "y": "redo"]

    func navigate(to url: String) throws(RobotKitError) {
        let answer = try command([.init(method: "Page.navigate", params: ["url": url])])[0].get()
        if let error = answer["errorText"] as? String, !error.isEmpty, error != "net::ERR_ABORTED" {
            throw .webDriver(code: "unknown error", "could not open \(url): \(error)")
        }
    }

    func history(_ move: HistoryMove) throws(RobotKitError) {
        if move == .reload {
            _ = try command([.init(method: "Page.reload")])[0].get()
            return
        }
        let history = try command([.init(method: "Page.getNavigationHistory")])[0].get()
        let index = (history["currentIndex"] as? NSNumber)?.intValue ?? 0
        let entries = history["entries"] as? [[String: Any]] ?? []
        let target = move == .back ? index - 1 : index + 1
        // Like a browser's button at the end of its history: nothing happens.
        guard entries.indices.contains(target), let id = entries[target]["id"] else { return }
        _ = try command([.init(method: "Page.navigateToHistoryEntry", params: ["entryId": id])])[0].get()
    }

    func screenshot(jpegQuality: Int?) throws(RobotKitError) -> Data {
        var params: [String: Any] = ["format": jpegQuality == nil ? "png" : "jpeg"]
        if let jpegQuality {
            params["quality"] = jpegQuality
            params["optimizeForSpeed"] = true
        }
        let answer = try command([.init(method: "Page.captureScreenshot", params: params)], timeout: 30)[0].get()
        guard let base64 = answer["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw .webDriver(code: "unknown error", "screenshot: the browser returned no image")
        }
        return data
    }

    func console() throws(RobotKitError) -> [BrowserLogEntry] {
        connection.pump()
        defer { messages = [] }
        return messages
    }

    /// Sends `commands` on this page's session; a failure for a browser reason marks the page suspect.
    private func command(_ commands: [DevToolsConnection.Command], timeout: TimeInterval = 60)
        throws(RobotKitError) -> [Result<[String: Any], RobotKitError>]
    {
        let mine = commands.map { command in
            var command = command
            if command.session == nil { command.session = session }
            return command
        }
        do {
            return try connection.callAll(mine, timeout: timeout)
        } catch {
            if error.webDriverCode == nil { isSuspect = true }
            throw error
        }
    }

    /// The page's events: dialogs are answered at once, console lines kept.
    private func handle(_ event: String, _ params: [String: Any]) -> RobotKitError? {
        switch event {
        case "Page.javascriptDialogOpening":
            let type = params["type"] as? String ?? "alert"
            let leave = type == "beforeunload"
            _ = try? connection.sendOnly("Page.handleJavaScriptDialog", ["accept": leave], session: session)
            if leave || !dialogsInterrupt { return nil }
            return .webDriver(code: "unexpected alert open",
                              "the page opened a \(type) (\(params["message"] as? String ?? "")); RobotKit dismissed it")
        case "Runtime.consoleAPICalled":
            messages.append(BrowserLogEntry(
                level: Self.level(of: params["type"] as? String ?? "log"),
                timestamp: (params["timestamp"] as? NSNumber)?.doubleValue ?? 0,
                message: (params["args"] as? [[String: Any]] ?? []).map(Self.text(of:)).joined(separator: " ")))
        case "Runtime.exceptionThrown":
            let details = params["exceptionDetails"] as? [String: Any] ?? [:]
            let exception = details["exception"] as? [String: Any]
            messages.append(BrowserLogEntry(
                level: "SEVERE", timestamp: (params["timestamp"] as? NSNumber)?.doubleValue ?? 0,
                message: exception?["description"] as? String ?? details["text"] as? String ?? "uncaught exception"))
        case "Inspector.targetCrashed":
            isSuspect = true
        default:
            break
        }
        return nil
    }

    /// WebDriver's log levels, as chromedriver named console calls.
    private static func level(of type: String) -> String {
        switch type {
        case "error", "assert": "SEVERE"
        case "warning": "WARNING"
        case "debug": "DEBUG"
        default: "INFO"
        }
    }

    /// A console argument as text: its value, else its description.
    private static func text(of argument: [String: Any]) -> String {
        if let value = argument["value"] {
            if let string = value as? String { return string }
            if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
                return String(decoding: data, as: UTF8.self)
            }
        }
        return argument["description"] as? String ?? argument["type"] as? String ?? ""
    }
}

extension KeyModifiers {
    /// The DevTools `modifiers` bit a modifier key sets.
    static func bit(of stroke: KeyStroke) -> Int {
        switch stroke.key {
        case "Alt": KeyModifiers.alt.rawValue
        case "Control": KeyModifiers.control.rawValue
        case "Meta": KeyModifiers.meta.rawValue
        case "Shift": KeyModifiers.shift.rawValue
        default: 0
        }
    }
}
