import Foundation
import Testing

/// Where a snapshot's baseline lives: beside the file that called `verifySnapshot` (the
/// test's, when robots pass their `file:` on as verifications do), in
/// `__Snapshots__/<browser>/<TestType>/<test>.<name>.png`, one set per browser engine.
struct SnapshotLocation: Equatable, Sendable {
    /// `chromium`, `webkit`, or for a WebDriver grid `webdriver-<browserName>`.
    var browser: String
    /// The test's class (XCTest) or suite (Swift Testing).
    var type: String
    /// The test's method or function, without parentheses.
    var test: String
    /// The name the test gave the snapshot.
    var name: String

    /// The folder beside the calling source file.
    static let folder = "__Snapshots__"

    /// The baseline PNG for a call from `file`: under `root` when the run names one, else in
    /// `__Snapshots__` beside the file.
    func baseline(beside file: String, root: URL? = nil) -> URL {
        let root = root ?? URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(Self.folder, isDirectory: true)
        return root
            .appendingPathComponent(Self.component(browser), isDirectory: true)
            .appendingPathComponent(Self.component(type), isDirectory: true)
            .appendingPathComponent(Self.component("\(test).\(name)") + ".png")
    }

    /// The stem of the failure's files in the artifacts folder: `snapshot-<test>.<name>`.
    var artifactStem: String { "snapshot-" + Self.component("\(test).\(name)") }

    /// The `--filter` regex that runs this test alone: `Type/test$`, regex characters escaped.
    var filter: String {
        let id = "\(type)/\(test)" + (isSwiftTesting ? "()" : "")
        return Self.regexEscaped(id) + "$"
    }

    /// Whether the test is a Swift Testing function (its id ends in `()`).
    var isSwiftTesting = false

    /// The engine's name for the folder: the browser RobotKit drives in this process.
    static func browserName(_ environment: WorkerEnvironment = WorkerEnvironment()) -> String {
        if environment.webDriverURL != nil {
            let asked = ProcessInfo.processInfo.environment["ROBOTKIT_WEBDRIVER_BROWSER"].flatMap { $0.isEmpty ? nil : $0 }
            return "webdriver-" + (asked ?? "chrome").lowercased()
        }
        return environment.browser
    }

    /// The running test, for a snapshot called `name`; nil outside any test.
    static func current(name: String) -> SnapshotLocation? {
        if let test = Test.current {
            let components = test.id.nameComponents
            let type = components.count > 1 ? components.dropLast().joined(separator: ".") : test.id.moduleName
            let function = test.name.prefix { $0 != "(" }
            var location = SnapshotLocation(browser: browserName(), type: type, test: String(function), name: name)
            location.isSwiftTesting = true
            return location
        }
        // The process's first test started before RobotKit's observer: its name is on the stack.
        guard let parts = RobotKitTestObserver.runningTest.flatMap(xcTestParts) ?? CallSite.testMethodOnStack() else {
            return nil
        }
        return SnapshotLocation(browser: browserName(), type: parts.type, test: parts.test, name: name)
    }

    /// `Class.testMethod` (Linux XCTest; a module prefix dropped) or `-[Class testMethod]` (Darwin).
    static func xcTestParts(_ name: String) -> (type: String, test: String)? {
        var text = Substring(name)
        if text.hasPrefix("-["), text.hasSuffix("]") {
            let inner = text.dropFirst(2).dropLast()
            let parts = inner.split(separator: " ")
            guard parts.count == 2 else { return nil }
            return (String(parts[0].split(separator: ".").last ?? parts[0]), String(parts[1]))
        }
        guard let dot = text.lastIndex(of: ".") else { return nil }
        let test = text[text.index(after: dot)...]
        text = text[..<dot]
        let type = text.split(separator: ".").last ?? text
        guard !type.isEmpty, !test.isEmpty else { return nil }
        return (String(type), String(test))
    }

    /// `text` as one file name: letters, digits, `.`, `-` and `_` kept, anything else `_`,
    /// at most 120 bytes.
    static func component(_ text: String) -> String {
        let kept = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        let safe = kept.hasPrefix(".") ? "_" + kept.dropFirst() : kept
        return String(safe.prefix(120))
    }

    private static func regexEscaped(_ text: String) -> String {
        var out = ""
        for ch in text {
            if "\\^$.|?*+()[]{}".contains(ch) { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}
