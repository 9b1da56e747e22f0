import BrowserTools
import Foundation
import ProcessToolkit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The shard's browser channel (`DevToolsRelay`) with a stand-in browser that answers each
/// NUL-framed command on fds 3/4 with its id and method, and with the real Chromium: who may
/// connect, what a dead client leaves behind, and that a hello starts (and restarts) a browser.
final class DevToolsRelayTests: XCTestCase {
    private var folder: URL!
    private var relay: DevToolsRelay?

    override func setUpWithError() throws {
        folder = try XCTUnwrap(PrivateFolder.make(prefix: "relay-test-"))
    }

    override func tearDownWithError() throws {
        relay?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A "browser" that echoes: `{"id":N,"result":{"method":M}}` for each command.
    private static let echo = """
        import json, os, sys
        buf = b""
        while True:
            chunk = os.read(3, 65536)
            if not chunk: break
            buf += chunk
            while b"\\0" in buf:
                msg, buf = buf.split(b"\\0", 1)
                try:
                    m = json.loads(msg)
                    out = {"id": m["id"], "result": {"method": m["method"], "args": sys.argv[1:3]}}
                except Exception as e:
                    out = {"method": "Garbled", "params": {"bytes": len(msg)}}
                os.write(4, json.dumps(out).encode() + b"\\0")
        """

    private func startRelay() throws -> DevToolsRelay {
        let folder = self.folder!
        let relay = try DevToolsRelay(socketPath: folder.appendingPathComponent("devtools.sock").path) {
            arguments, generation throws(ChromeDriver.StartFailure) in
            var launch = ChromiumProcess.Launch(
                executable: "/usr/bin/python3", arguments: ["-c", Self.echo] + arguments,
                profile: folder.appendingPathComponent("profile-\(generation)").path,
                logPath: folder.appendingPathComponent("browser.log").path, group: .own)
            launch.temporaryDirectory = nil
            return try ChromiumProcess.start(launch)
        }
        self.relay = relay
        return relay
    }

    /// A connected client speaking raw bytes.
    private final class Client {
        private(set) var fd: Int32
        var frames = DevToolsFrames()
        var queued: [[UInt8]] = []

        init(path: String) throws {
            guard let fd = LocalSocket.connect(path: path) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            self.fd = fd
        }

        deinit { hangUp() }

        /// The test process ends: its end of the socket closes.
        func hangUp() {
            if fd >= 0 { close(fd) }
            fd = -1
        }

        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }

        /// The next message, or nil at EOF or after `timeout`.
        func next(timeout: TimeInterval = 10) -> [String: Any]? {
            let deadline = Date().addingTimeInterval(timeout)
            while queued.isEmpty {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard Date() < deadline, poll(&pfd, 1, 100) >= 0 else { return nil }
                guard pfd.revents != 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { return nil }
                queued += (try? frames.append(buffer[0..<count])) ?? []
            }
            return (try? JSONSerialization.jsonObject(with: Data(queued.removeFirst()))) as? [String: Any]
        }
    }

    func testAHelloStartsTheBrowserAndADeadClientsHalfMessageIsDropped() throws {
        let relay = try startRelay()
        let first = try Client(path: relay.socketPath)
        first.send(RelayHello.request(arguments: ["--one"]))
        let hello = try XCTUnwrap(first.next())
        let body = try XCTUnwrap(hello[RelayHello.key] as? [String: Any])
        XCTAssertEqual(body["generation"] as? Int, 1)
        let pid = try XCTUnwrap(relay.browserPID)
        first.send(Array(#"{"id":1,"method":"A.one"}"#.utf8) + [0])
        XCTAssertEqual((first.next()?["result"] as? [String: Any])?["method"] as? String, "A.one")
        // The test process dies in the middle of a message.
        first.send(Array(#"{"id":2,"method":"A.hal"#.utf8))
        usleep(100_000)
        first.hangUp()
        let second = try Client(path: relay.socketPath)
        second.send(RelayHello.request(arguments: ["--one"]))
        let again = try XCTUnwrap(second.next()?[RelayHello.key] as? [String: Any])
        XCTAssertEqual(again["generation"] as? Int, 1, "the same switches keep the warm browser")
        XCTAssertEqual(relay.browserPID, pid)
        second.send(Array(#"{"id":3,"method":"B.whole"}"#.utf8) + [0])
        let answer = try XCTUnwrap(second.next())
        XCTAssertEqual(answer["id"] as? Int, 3, "the browser saw a whole message, not the dead client's half: \(answer)")
        XCTAssertNil(answer["method"], "nothing garbled reached the browser: \(answer)")
    }

    func testNewSwitchesOrAFreshRequestReplaceTheBrowser() throws {
        let relay = try startRelay()
        let client = try Client(path: relay.socketPath)
        client.send(RelayHello.request(arguments: ["--one"]))
        _ = try XCTUnwrap(client.next())
        let first = try XCTUnwrap(relay.browserPID)
        let other = try Client(path: relay.socketPath)
        other.send(RelayHello.request(arguments: ["--two"]))
        XCTAssertEqual((other.next()?[RelayHello.key] as? [String: Any])?["generation"] as? Int, 2)
        XCTAssertNil(client.next(timeout: 2), "the newest connection wins: the older one is closed")
        XCTAssertNotEqual(relay.browserPID, first)
        XCTAssertFalse(ProcessTable.isRunning(first) && !isZombie(first), "the old browser is gone")
        let fresh = try Client(path: relay.socketPath)
        fresh.send(RelayHello.request(arguments: ["--two"], fresh: true))
        XCTAssertEqual((fresh.next()?[RelayHello.key] as? [String: Any])?["generation"] as? Int, 3, "fresh: a new browser")
    }

    func testAMessageThatIsNotAHelloIsRefused() throws {
        let relay = try startRelay()
        let client = try Client(path: relay.socketPath)
        client.send(Array(#"{"id":1,"method":"Target.createTarget"}"#.utf8) + [0])
        let answer = try XCTUnwrap(client.next()?[RelayHello.key] as? [String: Any])
        XCTAssertTrue((answer["error"] as? String)?.contains("not a robotci hello") == true, "\(answer)")
        XCTAssertNil(client.next(timeout: 2), "and the connection is closed")
        XCTAssertNil(relay.browserPID, "no browser was started for it")
    }

    /// Another local user can neither open the socket's folder nor, when the folder and the
    /// socket are opened to everyone, talk to the relay: it refuses peers of another user.
    func testAnotherUserCannotReachTheBrowser() throws {
        guard geteuid() == 0, let setpriv = ChildProcess.setpriv else { throw XCTSkip("needs root and setpriv to act as another user") }
        let relay = try startRelay()
        let probe = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(sys.argv[1])
            except OSError as e:
                print("refused:", e.strerror); sys.exit(0)
            try:
                s.sendall(sys.argv[2].encode() + b"\\0")
            except OSError as e:
                # The relay may close the refused peer before it has written a byte.
                print("closed before the hello:", e.strerror); sys.exit(0)
            s.settimeout(5)
            try:
                data = s.recv(4096)
            except OSError as e:
                data = b""
            print("answered:" if data else "closed", data[:200])
            """
        func asNobody() throws -> String {
            let hello = String(decoding: RelayHello.request(arguments: ["--x"]).dropLast(), as: UTF8.self)
            let run = try ChildProcess(executable: setpriv, arguments: [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", probe, relay.socketPath, hello,
            ], options: .init(parentDeathSignal: false))
            let output = readAll(run.outputFD)
            _ = run.wait()
            return output
        }
        let private0700 = try asNobody()
        XCTAssertTrue(private0700.contains("refused: Permission denied"), private0700)
        // Open the folder and the socket to everyone: the relay itself still refuses.
        chmod(folder.path, 0o755)
        chmod(relay.socketPath, 0o777)
        let open = try asNobody()
        XCTAssertTrue(open.hasPrefix("closed"), "the relay closed another user's connection unanswered: \(open)")
        XCTAssertNil(relay.browserPID, "no browser was started for another user")
    }

    private func isZombie(_ pid: pid_t) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "").contains(") Z ")
    }
}
