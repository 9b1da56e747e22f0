import Foundation
import ProcessToolkit
import RobotCICore

/// Builds a SwiftPM package's tests and finds its test bundle.
struct SwiftPackage {
    let path: String
    let configuration: String
    let extraArguments: [String]

    /// The `swift` it runs (a test gives its own).
    var swift: String = Executables.find("swift") ?? "/usr/bin/swift"

    /// `swift build --build-tests`, echoing the compiler's output; throws on failure.
    func build(echo: @escaping (String) -> Void) throws {
        let args = ["build", "--build-tests", "--package-path", path, "-c", configuration] + extraArguments
        let (termination, _) = try swiftPM(args, echo: echo)
        guard termination == .exited(0) else { throw RunnerError.buildFailed(path) }
    }

    /// `swift` with `arguments`, its temporary files in a folder of its own that is removed
    /// afterwards: SwiftPM leaves a `TemporaryDirectory.*` in the temporary folder on every
    /// call (five or six a build), which would pile up in /tmp run after run. The folder's
    /// name is no input of the build: nothing is rebuilt for it.
    private func swiftPM(_ arguments: [String], echo: ((String) -> Void)? = nil) throws -> (ChildProcess.Termination, String) {
        guard let folder = PrivateFolder.make(prefix: "robotci-swiftpm-") else {
            return try runCaptured(swift, arguments, echo: echo)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": folder.path]) { $1 }
        return try runCaptured(swift, arguments, environment: environment, echo: echo)
    }

    /// The bundle in `.build/<configuration>/` (found without running SwiftPM when possible).
    func findBundle() throws -> TestBundle {
        let fm = FileManager.default
        // A build moved elsewhere (`--scratch-path`, `--build-path` in build-arguments) must be
        // asked for its folder: the package's own .build may hold an older build.
        let movedBuild = extraArguments.contains { $0.hasPrefix("--scratch-path") || $0.hasPrefix("--build-path") }
        let candidates = movedBuild ? [] : [
            "\(path)/.build/\(configuration)",
        ]
        var binDir = candidates.first { fm.fileExists(atPath: $0) }
        if binDir == nil {
            let (t, out) = try swiftPM(["build", "--show-bin-path", "--package-path", path, "-c", configuration] + extraArguments)
            if t == .exited(0) { binDir = out.split(separator: "\n").last.map(String.init) }
        }
        guard let dir = binDir, let entries = try? fm.contentsOfDirectory(atPath: dir) else {
            throw RunnerError.noTestBundle("\(path)/.build/\(configuration)")
        }
        // Newest first: a build folder shared by several packages keeps their older bundles,
        // and the one just built (or last built, with --skip-build) is this package's.
        func modified(_ name: String) -> Date {
            let attributes = try? fm.attributesOfItem(atPath: "\(dir)/\(name)")
            return attributes?[.modificationDate] as? Date ?? .distantPast
        }
        let dated: [(name: String, date: Date)] = entries.filter { $0.hasSuffix("PackageTests.xctest") }.map { ($0, modified($0)) }
        let bundles: [String] = dated.sorted { a, b in a.date != b.date ? a.date > b.date : a.name < b.name }.map(\.name)
        guard let name = bundles.first ?? entries.first(where: { $0.hasSuffix(".xctest") }) else {
            throw RunnerError.noTestBundle(dir)
        }
        let full = URL(fileURLWithPath: dir).appendingPathComponent(name).standardizedFileURL.path
        return TestBundle(path: full, workingDirectory: URL(fileURLWithPath: path).standardizedFileURL.path)
    }
}
