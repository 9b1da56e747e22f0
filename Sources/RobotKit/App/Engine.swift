import Foundation

/// What the page script reports about a query.
struct QueryResult {
    var count = 0
    var ambiguous = false
    var exists = false
    var satisfied = true
    var info: ElementInfo?
    var elementID: String?
    var scrolled = false
    var tree = ""
    /// Where a tap lands (viewport CSS pixels), when nothing covers the element there.
    var point: (x: Int, y: Int)?
    /// What covers the element's center, when something does.
    var cover = ""

    init(_ value: Any?) {
        guard let object = value as? [String: Any] else { return }
        count = (object["count"] as? NSNumber)?.intValue ?? 0
        ambiguous = object["ambiguous"] as? Bool ?? false
        exists = object["exists"] as? Bool ?? false
        satisfied = object["satisfied"] as? Bool ?? true
        info = (object["info"] as? [String: Any]).map(ElementInfo.init)
        elementID = WebDriverSession.elementID(in: object["element"])
        scrolled = object["scrolled"] as? Bool ?? false
        tree = object["tree"] as? String ?? ""
        if let point = object["point"] as? [String: Any], let x = (point["x"] as? NSNumber)?.intValue,
            let y = (point["y"] as? NSNumber)?.intValue
        {
            self.point = (x, y)
        }
        cover = object["cover"] as? String ?? ""
    }
}

/// A snapshot of one element's accessibility attributes.
struct ElementInfo {
    var type: WebElement.ElementType
    var identifier: String
    var label: String
    var value: String?
    var placeholder: String
    var isEnabled: Bool
    var isSelected: Bool
    var hasFocus: Bool
    var isHittable: Bool
    var frame: CGRect
    var title: String

    init(_ object: [String: Any]) {
        type = (object["type"] as? String).flatMap(WebElement.ElementType.init(rawValue:)) ?? .other
        identifier = object["identifier"] as? String ?? ""
        label = object["label"] as? String ?? ""
        value = object["value"] as? String
        placeholder = object["placeholder"] as? String ?? ""
        isEnabled = object["enabled"] as? Bool ?? false
        isSelected = object["selected"] as? Bool ?? false
        hasFocus = object["focused"] as? Bool ?? false
        isHittable = object["hittable"] as? Bool ?? false
        title = object["title"] as? String ?? ""
        let frame = object["frame"] as? [String: Any] ?? [:]
        func number(_ key: String) -> Double { (frame[key] as? NSNumber)?.doubleValue ?? 0 }
        self.frame = CGRect(x: number("x"), y: number("y"), width: number("width"), height: number("height"))
    }
}

/// Runs query scripts in a live session, riding out page navigations.
struct Engine {
    let session: WebDriverSession

    /// One synchronous query + operation.
    func run(_ chain: [QueryStep], op: String, argument: Any = NSNull()) throws(RobotKitError) -> QueryResult {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                let value = try session.executeScript(QueryScript.run, [Self.spec(chain), op, argument])
                return QueryResult(value)
            } catch where Self.isNavigationRace(error) && Date() < deadline {
                usleep(50_000)
            }
        }
    }

    /// What a wait waits for.
    enum Until: String {
        case appear, disappear
        /// A match a pointer can reach: present and not covered at its center (scrolled into view).
        case actionable
    }

    /// Waits in the page until the query has a match (`appear`) or none (`disappear`).
    func wait(_ chain: [QueryStep], appear: Bool, timeout: TimeInterval, op: String) throws(RobotKitError)
        -> QueryResult
    {
        try wait(chain, until: appear ? .appear : .disappear, timeout: timeout, op: op)
    }

    /// Waits in the page until `until` holds for the query, or `timeout` passes.
    func wait(_ chain: [QueryStep], until: Until, timeout: TimeInterval, op: String) throws(RobotKitError)
        -> QueryResult
    {
        let deadline = Date().addingTimeInterval(max(timeout, 0))
        while true {
            let remaining = max(deadline.timeIntervalSinceNow, 0)
            let scriptDeadline = Date().addingTimeInterval(remaining + 30)
            let value: Any?
            do {
                value = try session.executeAsyncScript(
                    QueryScript.wait, [Self.spec(chain), until.rawValue, Int(remaining * 1000), op],
                    timeout: remaining + 30)
            } catch where (Self.isNavigationRace(error) || Self.isUnloadedWait(error, scriptDeadline: scriptDeadline))
                && deadline.timeIntervalSinceNow > 0 {
                usleep(50_000)
                continue
            }
            if let object = value as? [String: Any], let error = object["error"] as? String {
                throw .webDriver(code: "javascript error", "query script failed: \(error)")
            }
            return QueryResult(value)
        }
    }

    /// The element a query designates, waiting up to `timeout` for it; fails when
    /// there is none or several (`unique` selection).
    func actionable(_ chain: [QueryStep], timeout: TimeInterval, op: String = "element") throws(RobotKitError)
        -> String
    {
        let result = try wait(chain, appear: true, timeout: timeout, op: op)
        try requireOne(result, chain)
        guard let id = result.elementID else {
            throw .webDriver(code: "no such element", "no matches found for \(describe(chain))")
        }
        return id
    }

    /// Throws unless the query found exactly one element (`unique` selection).
    private func requireOne(_ result: QueryResult, _ chain: [QueryStep]) throws(RobotKitError) {
        guard result.exists else {
            throw .webDriver(code: "no such element", "no matches found for \(describe(chain))")
        }
        if result.ambiguous {
            throw .webDriver(
                code: "ambiguous",
                "multiple matching elements found for \(describe(chain)) (\(result.count)); "
                    + "use .firstMatch or element(boundBy:)")
        }
    }

    /// Taps the element a query designates with a real pointer (move, press, release at its
    /// center), waiting up to `timeout` for it to exist and be uncovered. One page round trip
    /// and one input round trip; WebDriver's element click makes several of each.
    func tap(_ chain: [QueryStep], timeout: TimeInterval) throws(RobotKitError) {
        let result = try wait(chain, until: .actionable, timeout: timeout, op: "point")
        try requireOne(result, chain)
        guard let point = result.point else {
            let cover = result.cover.isEmpty ? "" : ": \(result.cover) is on top of it"
            throw .webDriver(code: "element click intercepted", "\(describe(chain)) is not hittable\(cover)")
        }
        try session.perform(actions: [
            [
                "type": "pointer", "id": "robotkit-finger", "parameters": ["pointerType": "mouse"],
                "actions": [
                    ["type": "pointerMove", "duration": 0, "origin": "viewport", "x": point.x, "y": point.y],
                    ["type": "pointerDown", "button": 0], ["type": "pointerUp", "button": 0],
                ],
            ]
        ], release: false)  // press and release: nothing stays down
    }

    static func spec(_ chain: [QueryStep]) -> [String: Any] {
        ["chain": chain.map(\.json)]
    }

    /// Chromium ends an async script whose document unloads (a tap that followed a link) with
    /// `script timeout` at once, long before the script's own timeout: that is a navigation
    /// race too, and the wait goes on on the new page.
    static func isUnloadedWait(_ error: RobotKitError, scriptDeadline: Date) -> Bool {
        error.webDriverCode == "script timeout" && scriptDeadline.timeIntervalSinceNow > 5
    }

    /// Errors that mean "the page changed under the script": retry on the new page.
    static func isNavigationRace(_ error: RobotKitError) -> Bool {
        guard let code = error.webDriverCode else { return false }
        if code == "stale element reference" || code == "no such execution context" { return true }
        let message = error.message.lowercased()
        return code == "javascript error"
            && (message.contains("unload") || message.contains("navigat") || message.contains("context"))
    }
}
