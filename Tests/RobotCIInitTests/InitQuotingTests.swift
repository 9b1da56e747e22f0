import XCTest
@testable import RobotCIInit

/// What `robotci init` writes from its inputs into a shell line, YAML and Swift source
/// (issue 39): `--robotci` went unquoted into the workflow's `run:` lines, the dependency's
/// package name unescaped into Package.swift, and `\r` unescaped into Swift literals.
final class InitQuotingTests: XCTestCase {
    /// The shell lines of the workflow step named `Install robotci…` (its `run:` block).
    private func installScript(_ workflow: String) throws -> String {
        let lines = workflow.components(separatedBy: "\n")
        let step = try XCTUnwrap(lines.firstIndex { $0.contains("- name:") && $0.contains("Install robotci") }, workflow)
        let run = try XCTUnwrap(lines[step...].firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("run:") }, workflow)
        let indent = lines[run].prefix { $0 == " " }.count
        let inline = lines[run].trimmingCharacters(in: .whitespaces).dropFirst("run:".count).trimmingCharacters(in: .whitespaces)
        if inline != "|" { return inline }
        return lines[(run + 1)...].prefix { $0.prefix { $0 == " " }.count > indent }
            .map { String($0.dropFirst(indent + 2)) }.joined(separator: "\n")
    }

    /// The arguments `git` and `make` get when `/bin/sh` runs `script` (each a printing function).
    private func arguments(of script: String) throws -> [String] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "git() { printf 'git\\0'; printf '%s\\0' \"$@\"; }; make() { printf 'make\\0'; printf '%s\\0' \"$@\"; }\n" + script]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, script)
        return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }

    func testRobotCIPathAndURLReachTheShellAsOneArgument() throws {
        let path = "../my robot's ci; echo injected $(echo too) #x"
        let local = ProjectTemplates.githubWorkflow(dependency: .path(path), robotciVersion: "0.1.0")
        XCTAssertEqual(try arguments(of: installScript(local)), ["make", "-C", path, "install", "PREFIX=/usr/local"], local)

        let url = "https://example.com/x;echo injected`echo too`/robotci"
        let remote = ProjectTemplates.githubWorkflow(dependency: .url(url, version: "0.1.0"), robotciVersion: "0.1.0")
        XCTAssertEqual(try arguments(of: installScript(remote)),
                       ["git", "clone", "--depth", "1", "--branch", "0.1.0", url, "/tmp/robotci", "make", "-C", "/tmp/robotci", "install",
                        "PREFIX=/usr/local"], remote)
    }

    func testSwiftLiteralsEscapeEveryControlCharacter() {
        XCTAssertEqual(SwiftLiteral.string("a\rb\tc\u{0}d\u{7}\"\\\n"), #""a\rb\tc\0d\u{7}\"\\\n""#)
    }

    func testAnUnsafeRobotCIValueIsRefused() throws {
        let here = FileManager.default.temporaryDirectory
        for text in ["https://example.com/robot\"ci", "https://example.com/robotci\n- run: id", "../robotci\rx",
                     "git@example.com:team/robot ci.git", "https://example.com/robotci\u{0}"] {
            XCTAssertThrowsError(try RobotCIDependency.parse(text, version: "0.1.0", packageDirectory: here, currentDirectory: here),
                                 text) { error in
                XCTAssertTrue("\(error)".contains("--robotci"), "\(error)")
            }
        }
        // An ordinary fork is still taken, and its package name is a Swift literal.
        let fork = try RobotCIDependency.parse("https://example.com/team/robotci-fork.git", version: "0.1.0",
                                               packageDirectory: here, currentDirectory: here)
        XCTAssertEqual(fork.packageIdentity, "robotci-fork")
        XCTAssertTrue(ProjectTemplates.testTarget(SuiteNames(folderName: "shop"), dependency: fork)
            .contains(#".product(name: "RobotKit", package: "robotci-fork")"#))
    }
}
