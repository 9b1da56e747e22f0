import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The Kubernetes queue template's Redis (issue 39): it passed `--requirepass $(REDIS_PASSWORD)`
/// on redis-server's command line, which `ps` and /proc/PID/cmdline show to every process that
/// can see the pod's. Its start script runs here as the container would, on a free port.
final class QueueTemplateEndToEndTests: XCTestCase {
    /// The block scalar of the `args:` of the container named `name` in `yaml` (`- |` lines).
    private func startScript(in yaml: String, container name: String) throws -> String {
        let lines = yaml.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "- name: \(name)" }, "container \(name)")
        let args = try XCTUnwrap(lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("args:") })
        let block = try XCTUnwrap(lines[(args + 1)...].first.flatMap { $0.trimmingCharacters(in: .whitespaces) == "- |" ? args + 1 : nil },
                                  "the redis container's args are a script (- |), not redis-server flags: \(lines[args])")
        let indent = lines[block].prefix { $0 == " " }.count
        return lines[(block + 1)...].prefix { $0.prefix { $0 == " " }.count > indent || $0.isEmpty }
            .map { String($0.drop { $0 == " " }) }.joined(separator: "\n")
    }

    func testKubernetesRedisGetsItsPasswordFromAFileNotItsCommandLine() throws {
        let yaml = try String(contentsOf: E2E.root.appendingPathComponent("config/ci/kubernetes-indexed-job-queue.yml"), encoding: .utf8)
        XCTAssertFalse(yaml.contains("--requirepass"), "no password flag on the command line")
        let script = try startScript(in: yaml, container: "redis")

        // The image's redis-server, reached through PATH: the real one on a free port.
        let dir = E2E.temporaryDirectory("k8s-redis")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = RedisServer.freePort()
        let shim = dir.appendingPathComponent("redis-server")
        try "#!/bin/sh\nexec /usr/bin/redis-server \"$@\" --port \(port) --bind 127.0.0.1 --dir \(dir.path)\n"
            .write(to: shim, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(shim.path, 0o755), 0)
        let password = "k8s \"pw\" \\ \(UUID().uuidString.prefix(8))"
        let redis = Process()
        redis.executableURL = URL(fileURLWithPath: "/bin/sh")
        redis.arguments = ["-c", script]
        redis.environment = ["REDIS_PASSWORD": password, "PATH": "\(dir.path):/usr/bin:/bin", "TMPDIR": dir.path]
        redis.standardOutput = FileHandle.nullDevice
        try redis.run()
        defer {
            kill(redis.processIdentifier, SIGKILL)
            redis.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(10)
        while !RedisServer.canConnect(port) && Date() < deadline { usleep(50_000) }
        XCTAssertTrue(RedisServer.canConnect(port), "the template's redis-server started")

        let cmdline = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(redis.processIdentifier)/cmdline"))
        XCTAssertNil(cmdline.range(of: Data(password.utf8)), String(decoding: cmdline, as: UTF8.self))
        func ping(_ with: String?) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
            p.arguments = ["-p", String(port), "--no-auth-warning"] + (with.map { ["-a", $0] } ?? []) + ["PING"]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return text
        }
        XCTAssertTrue(try ping(password).contains("PONG"), "the Secret's password works, quotes and backslash included")
        XCTAssertTrue(try ping(nil).contains("NOAUTH"), "and it is required")
    }
}
