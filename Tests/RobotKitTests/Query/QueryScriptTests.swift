import Foundation
@testable import RobotKit
import Testing

/// The page script's boundary without a browser: the embedded copy is current, the file
/// parses, it knows every operation, and replies are read key by key.
@Suite struct QueryScriptTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("robotkit-page")
    static let stale = "Sources/RobotKit/Query/QueryScriptLibrary.swift is out of date: run robotkit-page/embed"

    static func source() throws -> String {
        try String(contentsOf: folder.appendingPathComponent("query.js"), encoding: .utf8)
    }

    @Test func embeddedScriptMatchesQueryJS() throws {
        #expect(QueryScript.library == (try Self.source()), Comment(rawValue: Self.stale))
        let status = try Self.run("/bin/bash", [Self.folder.appendingPathComponent("embed").path, "--check"])
        #expect(status == 0, Comment(rawValue: Self.stale))
    }

    @Test(.enabled(if: Self.node != nil, "node is not installed"))
    func queryJSParsesAndDefinesRunAndWait() throws {
        let node = try #require(Self.node)
        let file = Self.folder.appendingPathComponent("query.js").path
        #expect(try Self.run(node, ["--check", file]) == 0)
        // Evaluated (no DOM needed to define it): RK has the two entry points Swift calls.
        let probe = "eval(require('fs').readFileSync(process.argv[1], 'utf8') + "
            + "';if (typeof RK.run !== \"function\" || typeof RK.wait !== \"function\") process.exit(3)')"
        #expect(try Self.run(node, ["-e", probe, file]) == 0)
    }

    /// The short call finds the installed library by its name, answers `missing` in a document
    /// without it, and the installer in front defines it (node: no DOM needed to install).
    @Test(.enabled(if: Self.node != nil, "node is not installed"))
    func theInstalledLibraryIsCalledByNameAndMissingWhereItIsNot() throws {
        let node = try #require(Self.node)
        let missing = try QueryScript.expression(QueryScript.Call.run, [["chain": []], "count", NSNull()], install: false)
        let call = "(k, a) => typeof k.RK.run + ',' + typeof k.RK.wait + ',' + typeof k.snapshot + ',' + a.join('|')"
        let installed = try QueryScript.expression(call, [1, "two\u{2028}'\"", NSNull()], install: true)
        let again = try QueryScript.expression(call, [3], install: false)
        let program = """
            const [a, b, c] = [eval(process.argv[1]), eval(process.argv[2]), eval(process.argv[3])];
            if (a !== '__robotkit_missing' || b !== 'function,function,function,1|two\\u2028\\'"|'
                || c !== 'function,function,function,3') { console.error(JSON.stringify([a, b, c])); process.exit(3); }
            """
        #expect(try Self.run(node, ["-e", program, missing, installed, again]) == 0)
        #expect(QueryScript.installedName.hasPrefix("__robotkit_") && QueryScript.installedName.count > 14)
    }

    @Test func theLibrarysNameIsAStableHashOfItsText() {
        #expect(QueryScript.fnv1a("") == "cbf29ce484222325")
        #expect(QueryScript.fnv1a("a") == "af63dc4c8601ec8c")
        #expect(QueryScript.installedName == "__robotkit_" + QueryScript.fnv1a(QueryScript.library + TraceSnapshot.function))
    }

    @Test func scriptPerformsEveryOperation() throws {
        let source = try Self.source()
        for name in QueryOperation.Name.allCases {
            #expect(source.contains("case '\(name.rawValue)':"), "query.js's perform has no case '\(name.rawValue)'")
        }
        #expect(QueryOperation.scroll(.left).argument == "left")
        #expect(QueryOperation.probe.argument == nil)
    }

    // MARK: - Replies

    static var info: [String: Any] { [
        "type": "button", "identifier": "save", "label": "Save", "value": NSNull(), "placeholder": "",
        "enabled": true, "selected": false, "focused": false, "hittable": true, "title": "",
        "frame": ["x": 1.5, "y": 2, "width": 30, "height": 10],
    ] }

    static func reply(_ extra: [String: Any] = [:], exists: Bool = true) -> [String: Any] {
        ["count": exists ? 1 : 0, "ambiguous": false, "exists": exists].merging(extra) { $1 }
    }

    static func decode(_ value: [String: Any], _ op: QueryOperation, waited: Bool = false) throws(RobotKitError) -> QueryReply {
        try QueryReply.decode(value, .init(operation: op, waited: waited))
    }

    @Test func readsEachOperationsKeys() throws {
        #expect(try Self.decode(Self.reply(), .count).exists)
        #expect(try Self.decode(Self.reply(), .count).satisfied, "a plain run is satisfied")
        #expect(try Self.decode(Self.reply(["focused": true]), .focus).focused)
        #expect(try !Self.decode(Self.reply(["focused": false], exists: false), .prepareClear).focused)
        #expect(try Self.decode(Self.reply(["scrolled": true]), .scroll(.up)).scrolled)
        #expect(try Self.decode(Self.reply(["tree": "Button, …"]), .tree).tree == "Button, …")
        let point = try Self.decode(Self.reply(["point": ["x": 4, "y": 5]]), .point)
        #expect(point.point == .init(x: 4, y: 5) && point.cover.isEmpty)
        let covered = try Self.decode(Self.reply(["point": NSNull(), "cover": "Other"]), .point)
        #expect(covered.point == nil && covered.cover == "Other")
        let info = try #require(try Self.decode(Self.reply(["info": Self.info]), .probe).info)
        #expect(info.type == .button && info.label == "Save" && info.value == nil && info.isHittable)
        #expect(info.frame == CGRect(x: 1.5, y: 2, width: 30, height: 10))
        #expect(try Self.decode(Self.reply(exists: false), .probe).info == nil, "no element, no info")
        let waited = try Self.decode(Self.reply(["satisfied": false]), .count, waited: true)
        #expect(!waited.satisfied)
    }

    @Test func aMissingKeyIsAnErrorNamingIt() {
        func message(_ value: [String: Any], _ op: QueryOperation, waited: Bool = false) -> String {
            do {
                _ = try Self.decode(value, op, waited: waited)
                return "decoded"
            } catch {
                return error.message
            }
        }
        var noCount = Self.reply()
        noCount["count"] = nil
        #expect(message(noCount, .count).contains("reply to 'count' has no 'count'"))
        #expect(message(Self.reply(), .tree).contains("has no 'tree'"))
        #expect(message(Self.reply(), .focus).contains("has no 'focused'"))
        #expect(message(Self.reply(), .scroll(.down)).contains("has no 'scrolled'"))
        #expect(message(Self.reply(), .probe).contains("has no 'info'"))
        #expect(message(Self.reply(), .count, waited: true).contains("has no 'satisfied'"))
        #expect(message(Self.reply(["point": NSNull()]), .point).contains("has no 'cover'"))
        var info = Self.info
        info["hittable"] = nil
        #expect(message(Self.reply(["info": info]), .probe).contains("has no 'info.hittable'"))
        info = Self.info
        info["value"] = nil
        #expect(message(Self.reply(["info": info]), .probe).contains("has no 'info.value'"), "null is a value; absence is not")
        info = Self.info
        info["type"] = "gizmo"
        #expect(message(Self.reply(["info": info]), .probe).contains("unknown element type 'gizmo'"))
        #expect(message(Self.reply(["count": "1"]), .count).contains("has a 'count' of the wrong type (Int expected)"))
        #expect(message(Self.reply(), .count).contains("decoded"))
        #expect(message(noCount, .count).contains("robotkit-page/query.js and QueryReply.swift must change together"))
    }

    @Test func aReplyThatIsNoObjectIsAnError() {
        #expect(throws: RobotKitError.self) { try QueryReply.decode(nil, .init(operation: .count, waited: false)) }
        #expect(throws: RobotKitError.self) { try QueryReply.decode("done", .init(operation: .count, waited: false)) }
    }

    // MARK: - Helpers

    static let node: String? = ["/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}
