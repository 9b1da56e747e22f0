import Foundation
import XCTest

/// Runs a test in a process of its own: for tests that set process-wide state nothing
/// resets (`RunInterruption.shared` once `--max-failures` stops the run), which would change
/// every later test of this bundle (a batch would count as interrupted).
enum OwnProcess {
    static let variable = "ROBOTCI_UNIT_OWN_PROCESS"

    /// In the child started for `test` (`Module.Class/testMethod`), runs `body`; elsewhere
    /// starts this test bundle again with `test` as its filter and fails unless that one test
    /// ran and passed there.
    static func run(_ test: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) throws {
        if ProcessInfo.processInfo.environment[variable] == test { return try body() }
        #if os(Linux)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [test]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: test]) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(test) in its own process:\n\(output.suffix(4000))", file: file, line: line)
        // An exit status of 0 from a filter that matched nothing would prove nothing.
        XCTAssertTrue(output.contains("Executed 1 test,"), "\(test) did not run alone:\n\(output.suffix(4000))", file: file, line: line)
        #else
        throw XCTSkip("re-running one test in its own process is done for Linux's xctest runner only")
        #endif
    }
}
