import Foundation
import LoopbackSockets
@testable import RobotKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `DevToolsSocket` against a scripted peer on loopback that speaks just enough WebSocket:
/// answers come back out of order and between events, as Chromium sends them when commands
/// run on different threads.
final class DevToolsSocketTests: XCTestCase {
    func testCallAllMatchesAnswersToCommandsWhateverTheirOrder() throws {
        let peer = try ScriptedPeer { peer in
            let commands = (0..<3).compactMap { _ in peer.readCommand() }
            guard commands.count == 3 else { return }
            // An event first, then the answers last to first, the middle one an error.
            peer.send(["method": "Page.frameNavigated", "params": ["frame": ["url": "about:blank"]]])
            peer.send(["id": commands[2]["id"]!, "result": ["n": 3]])
            peer.send(["id": commands[1]["id"]!, "error": ["code": -32000, "message": "Not attached to an active page"]])
            peer.send(["id": 999, "result": [:]])  // an answer no one waits for
            peer.send(["id": commands[0]["id"]!, "result": ["n": 1, "session": commands[0]["sessionId"] ?? "none"]])
        }
        let socket = try DevToolsSocket(url: peer.url)
        var events: [String] = []
        let answers = try socket.callAll([
            .init(method: "A.one", session: "S1"), .init(method: "A.two"), .init(method: "A.three", params: ["x": 1]),
        ], timeout: 5) { event, _ in events.append(event) }
        XCTAssertEqual(events, ["Page.frameNavigated"], "the event between the answers was seen")
        XCTAssertEqual(try answers[0].get()["n"] as? Int, 1)
        XCTAssertEqual(try answers[0].get()["session"] as? String, "S1", "the flat session went with the command")
        XCTAssertThrowsError(try answers[1].get()) { error in
            XCTAssertTrue("\(error)".contains("A.two: Not attached to an active page"), "\(error)")
        }
        XCTAssertEqual(try answers[2].get()["n"] as? Int, 3)
        peer.finish()
    }

    func testAwaitEventSkipsOtherEventsAndAnswersAndTimesOut() throws {
        let peer = try ScriptedPeer { peer in
            peer.send(["id": 5, "result": [:]])
            peer.send(["method": "Page.loadEventFired", "params": [:]])
            peer.send(["method": "Page.frameNavigated", "params": ["frame": ["url": "about:blank"]]])
        }
        let socket = try DevToolsSocket(url: peer.url)
        var seen: [String] = []
        try socket.awaitEvent(timeout: 5) { event, params in
            seen.append(event)
            return event == "Page.frameNavigated" && (params["frame"] as? [String: Any])?["url"] as? String == "about:blank"
        }
        XCTAssertEqual(seen, ["Page.loadEventFired", "Page.frameNavigated"])
        let started = Date()
        XCTAssertThrowsError(try socket.awaitEvent(timeout: 0.3) { _, _ in true }) { error in
            XCTAssertTrue("\(error)".contains("no answer from the browser in time"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        peer.finish()
    }
}

/// One WebSocket connection on a loopback port: the handshake, unmasked text frames out,
/// masked frames in; `script` runs on its own thread once the client is connected.
private final class ScriptedPeer: @unchecked Sendable {
    let url: String
    private let listener: Int32
    private var connection: Int32 = -1
    private let done = DispatchSemaphore(value: 0)

    init(script: @escaping @Sendable (ScriptedPeer) -> Void) throws {
        listener = try XCTUnwrap(Loopback.listen(port: 0))
        url = "ws://127.0.0.1:\(try XCTUnwrap(Loopback.boundPort(listener)))/devtools/browser/test"
        Thread.detachNewThread { [self] in
            connection = accept(listener, nil, nil)
            guard connection >= 0, handshake() else { done.signal(); return }
            script(self)
            // Hold the connection open until the test is done with it.
            done.wait()
        }
    }

    func finish() {
        done.signal()
        if connection >= 0 { close(connection) }
        close(listener)
    }

    private func handshake() -> Bool {
        var head: [UInt8] = []
        while !(head.count >= 4 && Array(head.suffix(4)) == [13, 10, 13, 10]) {
            guard let byte = read(1)?.first else { return false }
            head.append(byte)
        }
        let request = String(decoding: head, as: UTF8.self)
        guard request.hasPrefix("GET /devtools/browser/test HTTP/1.1") else { return false }
        write(Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8))
        return true
    }

    /// The next command the client sent, as JSON.
    func readCommand() -> [String: Any]? {
        guard let header = read(2) else { return nil }
        var length = Int(header[1] & 0x7F)
        if length == 126, let extended = read(2) { length = Int(extended[0]) << 8 | Int(extended[1]) }
        guard let mask = read(4), var payload = read(length) else { return nil }
        for index in payload.indices { payload[index] ^= mask[index & 3] }
        return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
    }

    func send(_ object: [String: Any]) {
        guard let payload = try? JSONSerialization.data(withJSONObject: object) else { return }
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(UInt8(payload.count))
        } else {
            frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        write(frame + Array(payload))
    }

    private func read(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + got, count - got, 0) }
            guard n > 0 else { return nil }
            got += n
        }
        return bytes
    }

    private func write(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            sent += n
        }
    }
}
