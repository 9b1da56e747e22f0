import Foundation

/// What the page script's `perform` (robotkit-page/query.js) answered for one query and
/// operation. Every key the operation sets is required: a key the script renamed or dropped
/// is an error naming it, never a quiet `false` or 0.
struct QueryReply: Decodable {
    /// How many elements the last link of the chain matched (before `firstMatch`/`boundBy`).
    var count: Int
    /// A `unique` selection matched more than one element.
    var ambiguous: Bool
    var exists: Bool
    /// For a wait: whether what it waited for came before the deadline (a plain run: true).
    var satisfied = true
    /// For a wait on an attribute: the attribute's last value as JSON (`"\"1 item left\""`, `3`, `null`).
    var seen: String?
    /// `probe`, when an element exists.
    var info: ElementInfo?
    /// `focus`, `prepareClear`: whether the match has the keyboard's focus now.
    var focused = false
    /// `scroll`: whether anything moved.
    var scrolled = false
    /// `tree`: the accessibility tree of the match ("" when there is none).
    var tree = ""
    /// `point`: where a tap lands (viewport CSS pixels), when nothing covers the element there.
    var point: Point?
    /// `point`: what covers the element's center, when something does.
    var cover = ""

    struct Point: Decodable, Equatable {
        var x: Int
        var y: Int
    }

    /// How a reply is read: which operation asked, and whether a wait did (which adds `satisfied`).
    struct Context: Sendable {
        var operation: QueryOperation
        var waited: Bool
    }

    private enum CodingKeys: String, CodingKey {
        case count, ambiguous, exists, satisfied, seen, info, focused, scrolled, tree, point, cover
    }

    init(from decoder: Decoder) throws {
        guard let key = Self.contextKey, let context = decoder.userInfo[key] as? Context else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no QueryReply.Context in userInfo"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        count = try c.decode(Int.self, forKey: .count)
        ambiguous = try c.decode(Bool.self, forKey: .ambiguous)
        exists = try c.decode(Bool.self, forKey: .exists)
        if context.waited {
            satisfied = try c.decode(Bool.self, forKey: .satisfied)
            seen = try c.decodeIfPresent(String.self, forKey: .seen)
        }
        switch context.operation {
        case .count:
            break
        case .probe, .reveal:
            info = exists ? try c.decode(ElementInfo.self, forKey: .info) : nil
        case .focus, .prepareClear:
            focused = try c.decode(Bool.self, forKey: .focused)
        case .point:
            if exists {
                point = try c.decode(Point?.self, forKey: .point)
                if point == nil { cover = try c.decode(String.self, forKey: .cover) }
            }
        case .scroll:
            scrolled = try c.decode(Bool.self, forKey: .scrolled)
        case .tree:
            tree = try c.decode(String.self, forKey: .tree)
        }
    }

    private static let contextKey = CodingUserInfoKey(rawValue: "robotkit.queryReply.context")

    /// Decodes what `executeScript` returned (JSON objects as Foundation values).
    static func decode(_ value: Any?, _ context: Context) throws(RobotKitError) -> QueryReply {
        let what = "the page script's reply to '\(context.operation.name.rawValue)'"
        guard let value, JSONSerialization.isValidJSONObject(value), value is [String: Any] else {
            throw .pageScript("\(what) is not an object: \(String(describing: value)); \(Self.keepInStep)")
        }
        if let object = value as? [String: Any], let failure = object["error"] as? String {
            // A query the page refused (a predicate) is the test's to fix; any other error is ours.
            if object["invalidQuery"] as? Bool == true { throw .webDriver(code: "invalid selector", failure) }
            throw .pageScript("the page script failed: \(failure)")
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: value)
            let decoder = JSONDecoder()
            if let key = contextKey { decoder.userInfo[key] = context }
            return try decoder.decode(QueryReply.self, from: data)
        } catch let error as DecodingError {
            throw .pageScript("\(what) \(Self.explain(error)); \(Self.keepInStep)")
        } catch {
            throw .pageScript("\(what) could not be read: \(error); \(Self.keepInStep)")
        }
    }

    private static let keepInStep =
        "robotkit-page/query.js and QueryReply.swift must change together (then run robotkit-page/embed)"

    /// A decoding error in a sentence: which key, and what was wrong with it.
    static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ key: CodingKey? = nil) -> String {
            ((context.codingPath + (key.map { [$0] } ?? [])).map(\.stringValue)).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "has no '\(path(context, key))'"
        case .valueNotFound(let type, let context): return "has null for '\(path(context))', a \(type)"
        case .typeMismatch(let type, let context): return "has a '\(path(context))' of the wrong type (\(type) expected)"
        case .dataCorrupted(let context): return "has a bad '\(path(context))': \(context.debugDescription)"
        @unknown default: return "could not be read: \(error)"
        }
    }
}

/// A snapshot of one element's accessibility attributes (`info` in query.js).
struct ElementInfo: Decodable {
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

    private enum CodingKeys: String, CodingKey {
        case type, identifier, label, value, placeholder, title, frame
        case isEnabled = "enabled", isSelected = "selected", hasFocus = "focused", isHittable = "hittable"
    }

    private struct Frame: Decodable {
        var x, y, width, height: Double
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let typeName = try c.decode(String.self, forKey: .type)
        guard let type = WebElement.ElementType(rawValue: typeName) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown element type '\(typeName)'")
        }
        self.type = type
        identifier = try c.decode(String.self, forKey: .identifier)
        label = try c.decode(String.self, forKey: .label)
        // Present and null for an element without a value.
        value = try c.decode(String?.self, forKey: .value)
        placeholder = try c.decode(String.self, forKey: .placeholder)
        isEnabled = try c.decode(Bool.self, forKey: .isEnabled)
        isSelected = try c.decode(Bool.self, forKey: .isSelected)
        hasFocus = try c.decode(Bool.self, forKey: .hasFocus)
        isHittable = try c.decode(Bool.self, forKey: .isHittable)
        title = try c.decode(String.self, forKey: .title)
        let f = try c.decode(Frame.self, forKey: .frame)
        frame = CGRect(x: f.x, y: f.y, width: f.width, height: f.height)
    }
}
