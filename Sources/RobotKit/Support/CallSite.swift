import Foundation
import ProcessToolkit
#if canImport(Runtime)
import Runtime
#endif

/// Where a read came from: the robot's (or the test's) file and line. Actions and waits take
/// hidden `#filePath`/`#line` arguments; a property (`label`, `exists`, `value`) cannot, so a
/// read's step finds its caller on the stack: the first frame whose source is not RobotKit's
/// own. Capturing a stack is cheap; resolving it to source lines reads debug information
/// (tenths of a second in a large test bundle), so a read keeps its stack (`Pending`) and
/// the trace resolves it only when it keeps the trace (a failure, a retry, `--trace always`),
/// once per distinct stack. Without debug information (a release build, a platform without
/// Swift's `Runtime` module) the step keeps RobotKit's own location.
struct CallSite: Sendable, Equatable {
    var file: String
    var line: UInt
    /// The calling function as `#function` spells it (`verifyTitle(_:)`), "" when unknown.
    var function: String = ""

    /// A captured stack, resolved on demand.
    struct Pending: Sendable {
        #if canImport(Runtime)
        fileprivate let stack: Backtrace
        #endif
        fileprivate let key: String

        /// The caller outside RobotKit, or nil when the stack cannot say.
        func resolve() -> CallSite? {
            if let known = CallSite.resolved.withLock({ $0[key] }) { return known }
            #if canImport(Runtime)
            guard let symbols = stack.symbolicated(with: CallSite.images, options: [.showSourceLocations, .useSymbolCache])
            else { return nil }
            for frame in symbols.frames {
                guard let location = frame.symbol?.sourceLocation, location.line > 0 else { continue }
                if CallSite.isOwn(location.path) { continue }
                let site = CallSite(file: location.path, line: UInt(location.line),
                                    function: CallSite.function(frame.symbol?.name ?? ""))
                CallSite.resolved.withLock { cache in
                    if cache.count > 4_096 { cache.removeAll() }
                    cache[key] = site
                }
                return site
            }
            #endif
            return nil
        }
    }

    /// RobotKit's source folder (`…/Sources/RobotKit/`): frames there are RobotKit's.
    fileprivate static let ownSources: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.lastPathComponent != "RobotKit" && url.pathComponents.count > 1 { url.deleteLastPathComponent() }
        return url.path + "/"
    }()

    fileprivate static let resolved = Locked<[String: CallSite]>([:])

    /// Whether a frame's source is RobotKit's: under its folder, or the same path relative to
    /// a package root (debug information of a package built as a dependency names its files
    /// relative to that package, `Sources/RobotKit/App/WebApp.swift`).
    static func isOwn(_ path: String) -> Bool {
        path.hasPrefix(ownSources) || path.hasPrefix("Sources/RobotKit/") || path.contains("/Sources/RobotKit/")
    }

    #if canImport(Runtime)
    /// The process's loaded images, read once.
    fileprivate static let images = ImageMap.capture()
    #endif

    /// The calling stack, for `Pending.resolve()` later; nil where stacks cannot be captured.
    static func capture() -> Pending? {
        #if canImport(Runtime)
        guard let stack = try? Backtrace.capture(limit: 16, top: 0, images: images) else { return nil }
        return Pending(stack: stack, key: stack.frames.map { "\($0)" }.joined(separator: " "))
        #else
        return nil
        #endif
    }

    /// The XCTest method on the stack (`Type.testSomething()`), read from the symbols: for
    /// the process's first test, which XCTest announced before RobotKit's observer was there
    /// to hear it. Costs a symbolication (tenths of a second); nil without debug symbols.
    static func testMethodOnStack() -> (type: String, test: String)? {
        #if canImport(Runtime)
        guard let stack = try? Backtrace.capture(limit: 128, top: 0, images: images),
              let symbols = stack.symbolicated(with: images, options: [.useSymbolCache])
        else { return nil }
        for frame in symbols.frames.reversed() {
            guard let name = frame.symbol?.name, let found = testMethod(in: name) else { continue }
            return found
        }
        #endif
        return nil
    }

    /// `Type` and `testName` of a demangled `Type.testName()` (with a module before it, a
    /// signature after it, or as the function a closure or an async part is in); nil for any
    /// other symbol.
    static func testMethod(in demangled: String) -> (type: String, test: String)? {
        var name = Substring(demangled)
        if let inner = name.range(of: " in ", options: .backwards) { name = name[inner.upperBound...] }
        if let inner = name.range(of: " for ", options: .backwards) { name = name[inner.upperBound...] }
        if let arrow = name.range(of: " -> ") { name = name[..<arrow.lowerBound] }
        for effect in [" throws", " async"] where name.hasSuffix(effect) { name = name.dropLast(effect.count) }
        if name.hasSuffix(" async") { name = name.dropLast(" async".count) }
        guard name.hasSuffix("()"), let open = name.firstIndex(of: "(") else { return nil }
        let parts = name[..<open].split(separator: ".")
        guard parts.count >= 2, let test = parts.last, test.hasPrefix("test") else { return nil }
        return (String(parts[parts.count - 2]), String(test))
    }

    /// The caller outside RobotKit, resolved now.
    static func outsideRobotKit() -> CallSite? {
        capture()?.resolve()
    }

    /// `#function`'s spelling of a demangled name: `M.Robot.verify(file: Swift.String) -> M.Robot`
    /// is `verify(file:)`; a closure's name is its enclosing function's.
    static func function(_ demangled: String) -> String {
        var name = Substring(demangled)
        if let inner = name.range(of: " in ", options: .backwards) { name = name[inner.upperBound...] }
        if let arrow = name.range(of: " -> ") { name = name[..<arrow.lowerBound] }
        guard let open = name.firstIndex(of: "(") else { return String(name.split(separator: ".").last ?? name) }
        let base = name[..<open].split(separator: ".").last ?? ""
        let parameters = name[name.index(after: open)...].dropLast()
        let labels = parameters.split(separator: ",").map { parameter -> String in
            let label = parameter.split(separator: ":", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces) ?? "_"
            return (label.isEmpty ? "_" : label) + ":"
        }
        return "\(base)(\(labels.joined()))"
    }
}
