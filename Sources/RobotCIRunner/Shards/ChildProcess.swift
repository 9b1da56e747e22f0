import Foundation
import ProcessToolkit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Children come from ProcessToolkit's `ChildProcess` (posix_spawn, own process group, parent-death
// signal, tagged for the stray reaper); this file holds the runner's uses of it.

extension ChildProcess {
    /// A runner child: its own process group (a timeout kills the whole tree), `environment` as
    /// given, output piped; a spawn failure as `RunnerError.spawn`.
    convenience init(executable: String, arguments: [String], environment: [String: String],
                     workingDirectory: String? = nil, eventChannel: Bool = false,
                     networkNamespace: NetworkNamespace? = nil) throws {
        do {
            try self.init(
                executable: executable, arguments: arguments, environment: environment,
                options: Options(output: .pipe, group: .own,
                                 workingDirectory: workingDirectory, eventChannel: eventChannel,
                                 networkNamespace: networkNamespace))
        } catch {
            throw RunnerError.spawn(error.executable, error.reason)
        }
    }
}

/// Runs a short command to completion, capturing its merged output (builds, discovery, git).
func runCaptured(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment, workingDirectory: String? = nil, echo: ((String) -> Void)? = nil) throws -> (ChildProcess.Termination, String) {
    let child = try ChildProcess(executable: executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory)
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    var pendingLine = Data()
    while true {
        let n = read(child.outputFD, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        data.append(contentsOf: buffer[0..<n])
        if let echo {
            pendingLine.append(contentsOf: buffer[0..<n])
            while let nl = pendingLine.firstIndex(of: 10) {
                echo(String(decoding: pendingLine[pendingLine.startIndex..<nl], as: UTF8.self))
                pendingLine.removeSubrange(pendingLine.startIndex...nl)
            }
        }
    }
    if let echo, !pendingLine.isEmpty { echo(String(decoding: pendingLine, as: UTF8.self)) }
    let termination = child.wait()
    return (termination, String(decoding: data, as: UTF8.self))
}
