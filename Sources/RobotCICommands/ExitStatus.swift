import ArgumentParser
import Foundation
import MockServer
import RobotCICore
import RobotCIReport
import RobotCIRunner
import StandardStreams

/// robotci's exit codes, and the one mapping from an error to a message and a code:
/// 0 nothing failed, 1 a test failed (a result, never an error), 2 usage, configuration, build
/// or input errors (every error robotci raises), 130 interrupted.
enum ExitStatus {
    static let usage: Int32 = 2

    /// The code an error ends robotci with.
    static func code(for error: any Error) -> Int32 {
        switch error {
        case let e as RunnerError: return e.exitCode
        case let e as ExitCode: return e.rawValue
        default: return usage
        }
    }

    /// What robotci prints for an error (after `robotci: error: `).
    static func message(for error: any Error) -> String {
        switch error {
        case let e as ConfigError: return e.message
        case let e as MergeError: return e.message
        default: return "\(error)"
        }
    }

    /// Runs a command's body: its result is the exit code, thrown as `ExitCode` unless 0; an
    /// error is printed as `<prefix>: error: <message>` and thrown as its code. Commands return
    /// (nothing here calls `exit`), so `CLI.run` drives them in-process.
    static func run(_ prefix: String = "robotci", _ body: () throws -> Int32) throws {
        let status: Int32
        do { status = try body() } catch { throw fail(prefix, error) }
        if status != 0 { throw ExitCode(status) }
    }

    /// The same for async bodies.
    static func run(_ prefix: String = "robotci", _ body: () async throws -> Int32) async throws {
        let status: Int32
        do { status = try await body() } catch { throw fail(prefix, error) }
        if status != 0 { throw ExitCode(status) }
    }

    private static func fail(_ prefix: String, _ error: any Error) -> ExitCode {
        // A build's or list command's output, a URL with a password: no secret reaches a CI log.
        let redactor = SecretRedactor(environment: ProcessInfo.processInfo.environment)
        StandardStream.error.write("\(prefix): error: \(redactor.redact(message(for: error)))\n")
        return ExitCode(code(for: error))
    }
}
