import Foundation
import HTTPClient

/// Runs query scripts in a launched page, riding out page navigations. Every query is one
/// call on the page library (`QueryScript`) installed in the document, through the page's
/// engine (`PageDriver`): the same code for Chromium over DevTools and for WebDriver.
struct Engine {
    let page: LaunchedPage

    /// The page's engine (taking it forgets a kept trace snapshot: the command may change the page).
    var driver: PageDriver { page.driver }

    /// One synchronous query + operation.
    func run(_ chain: [QueryStep], op: QueryOperation) throws(RobotKitError) -> QueryReply {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let value: Any?
            do throws(RobotKitError) {
                value = try query(waits: false, [Self.spec(chain), op.name.rawValue, op.argument ?? NSNull()], timeout: nil)
            } catch where Self.isNavigationRace(error) && Date() < deadline {
                usleep(50_000)
                continue
            }
            return try QueryReply.decode(value, .init(operation: op, waited: false))
        }
    }

    /// One query, `run` or `wait` (`waits`), traced while a trace records (the trace's
    /// `known` goes last, and the reply's snapshot is kept for the step).
    private func query(waits: Bool, _ arguments: [Any], timeout: Double?) throws(RobotKitError) -> Any? {
        let known = Self.traceKnown
        let arguments = known.map { arguments + [$0] } ?? arguments
        let value: Any?
        if waits {
            value = try call(known == nil ? QueryScript.Call.wait : QueryScript.Call.waitTraced, arguments,
                             awaitPromise: true, timeout: timeout)
        } else {
            value = try call(known == nil ? QueryScript.Call.run : QueryScript.Call.runTraced, arguments)
        }
        if known != nil { page.keepTraceSnapshot(of: value) }
        return value
    }

    /// `call` (a `QueryScript.Call`) on the library installed in the page, installing it first
    /// in a document that has none: one short evaluation, or two after a navigation.
    func call(_ call: String, _ arguments: [Any], awaitPromise: Bool = false, timeout: Double? = nil)
        throws(RobotKitError) -> Any?
    {
        let driver = self.driver
        let value = try driver.evaluate(
            QueryScript.expression(call, arguments, install: false), awaitPromise: awaitPromise, timeout: timeout)
        guard value as? String == QueryScript.missing else { return value }
        return try driver.evaluate(
            QueryScript.expression(call, arguments, install: true), awaitPromise: awaitPromise, timeout: timeout)
    }

    /// The page's snapshot for a trace step (`TraceSnapshot`): `[html, text]`, or null when
    /// `known` and nothing changed since.
    func snapshot(known: Bool) throws(RobotKitError) -> Any? {
        try call(QueryScript.Call.snapshot, [known])
    }

    /// What a wait waits for.
    enum Until {
        case appear, disappear
        /// A match a pointer can reach: present and not covered at its center (scrolled into view).
        case actionable
        /// An attribute of the first match (`label`, `value`, `count`…; `QueryScript`'s
        /// `attributeOf`) equal to `expected` (JSON).
        case equals(attribute: String, expected: Any)

        /// The page script's `mode` argument.
        var argument: Any {
            switch self {
            case .appear: "appear"
            case .disappear: "disappear"
            case .actionable: "actionable"
            case .equals(let attribute, let expected): ["attribute": attribute, "expected": expected]
            }
        }
    }

    /// Waits in the page until the query has a match (`appear`) or none (`disappear`).
    func wait(_ chain: [QueryStep], appear: Bool, timeout: TimeInterval, op: QueryOperation) throws(RobotKitError)
        -> QueryReply
    {
        try wait(chain, until: appear ? .appear : .disappear, timeout: timeout, op: op)
    }

    /// Waits in the page until `until` holds for the query, or `timeout` passes.
    func wait(_ chain: [QueryStep], until: Until, timeout: TimeInterval, op: QueryOperation) throws(RobotKitError)
        -> QueryReply
    {
        let deadline = Date().addingTimeInterval(max(timeout, 0))
        while true {
            let remaining = max(deadline.timeIntervalSinceNow, 0)
            let scriptDeadline = Date().addingTimeInterval(remaining + 30)
            let value: Any?
            do throws(RobotKitError) {
                value = try query(
                    waits: true, [Self.spec(chain), until.argument, Milliseconds.of(remaining), op.name.rawValue],
                    timeout: remaining + 30)
            } catch where Self.pageChanged(error, scriptDeadline: scriptDeadline) && deadline.timeIntervalSinceNow > 0 {
                usleep(50_000)
                continue
            }
            if let object = value as? [String: Any], let error = object["error"] as? String {
                throw .webDriver(code: "javascript error", "query script failed: \(error)")
            }
            return try QueryReply.decode(value, .init(operation: op, waited: true))
        }
    }

    /// Where a pointer would tap the one element a query designates, waiting up to `timeout`
    /// for it to exist and be uncovered (scrolled into view); fails when there is none, several
    /// (`unique` selection), or something covers it.
    func point(_ chain: [QueryStep], timeout: TimeInterval) throws(RobotKitError) -> (x: Double, y: Double) {
        let result = try wait(chain, until: .actionable, timeout: timeout, op: .point)
        try requireOne(result, chain)
        guard let point = result.point else {
            let cover = result.cover.isEmpty ? "" : ": \(result.cover) is on top of it"
            throw .webDriver(code: "element click intercepted", "\(describe(chain)) is not hittable\(cover)")
        }
        return (Double(point.x), Double(point.y))
    }

    /// Focuses the one element a query designates (caret at the end of its text; with
    /// `.prepareClear`, its text selected), waiting up to `timeout` for it to exist.
    func focus(_ chain: [QueryStep], timeout: TimeInterval, op: QueryOperation = .focus) throws(RobotKitError) {
        let result = try wait(chain, appear: true, timeout: timeout, op: op)
        try requireOne(result, chain)
        guard result.focused else {
            throw .webDriver(code: "element not interactable", "\(describe(chain)) cannot take the keyboard's focus")
        }
    }

    /// Throws unless the query found exactly one element (`unique` selection).
    private func requireOne(_ result: QueryReply, _ chain: [QueryStep]) throws(RobotKitError) {
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
    /// center), waiting up to `timeout` for it to exist and be uncovered: one page round trip
    /// and one input round trip.
    func tap(_ chain: [QueryStep], timeout: TimeInterval, count: Int = 1) throws(RobotKitError) {
        let point = try point(chain, timeout: timeout)
        try driver.pointer(PointerAction.click(x: point.x, y: point.y, count: count))
    }

    /// While a trace records: whether it has a snapshot already (the query's reply then brings
    /// the page's state along, `QueryScript.runTraced`); nil when tracing is off.
    static var traceKnown: Bool? {
        RobotKitProcess.current.trace.mode == .off ? nil : RobotKitProcess.current.trace.hasSnapshot
    }

    static func spec(_ chain: [QueryStep]) -> [String: Any] {
        ["chain": chain.map(\.json)]
    }

    /// A waiting script's error that means its document went away under it (a navigation race,
    /// or chromedriver's early `script timeout` for an unloaded document): wait again on the new page.
    static func pageChanged(_ error: RobotKitError, scriptDeadline: Date) -> Bool {
        isNavigationRace(error) || isUnloadedWait(error, scriptDeadline: scriptDeadline)
    }

    /// Through chromedriver (the WebDriver engine), an async script whose document unloads (a
    /// tap that followed a link) ends with `script timeout` at once, long before the script's
    /// own timeout: that is a navigation race too, and the wait goes on on the new page.
    static func isUnloadedWait(_ error: RobotKitError, scriptDeadline: Date) -> Bool {
        error.webDriverCode == "script timeout" && scriptDeadline.timeIntervalSinceNow > 5
    }

    /// Errors that mean "the page changed under the script": retry on the new page.
    static func isNavigationRace(_ error: RobotKitError) -> Bool {
        guard let code = error.webDriverCode else { return false }
        if code == "stale element reference" || code == "no such execution context" { return true }
        let message = error.message.lowercased()
        // An awaited evaluation whose document went away, through chromedriver.
        if code == "timeout" && message.contains("aborted by navigation") { return true }
        return code == "javascript error"
            && (message.contains("unload") || message.contains("navigat") || message.contains("context"))
    }
}
