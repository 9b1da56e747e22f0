import CProcessSupport
import Foundation
import ProcessToolkit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One shard's warm Chromium, owned by robotci, reached by the shard's test processes over a
/// Unix socket. A test process lives for one batch; the browser outlives it. The browser
/// speaks DevTools on its pipe (`ChromiumProcess`); the relay passes whole messages between
/// that pipe and the one connected test process:
/// - a connection's first message is a `RelayHello` naming Chromium's switches; the relay
///   starts the browser with them (again, when they differ from the running one's, or it died)
///   and answers with the browser's pid or an error;
/// - then messages pass through untouched, NUL-framed; a test process that dies mid-message
///   leaves nothing half written in the browser's pipe (a partial message is dropped), and a
///   new connection starts at a message boundary;
/// - the newest connection wins (the shard's next batch), and the browser's output is read
///   even with nobody connected, so its pipe never fills.
///
/// Who may connect: the socket lives in a folder only the run's user can open, and a peer of
/// another user is refused (`SO_PEERCRED`). No TCP port exists.
public final class DevToolsRelay: Sendable {
    /// Where test processes connect.
    public let socketPath: String

    /// Starts a browser for a hello's switches, from the relay's thread.
    public typealias Launcher = @Sendable (_ arguments: [String], _ generation: Int) throws(ChromeDriver.StartFailure)
        -> ChromiumProcess

    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let launcher: Launcher
    private let state = Locked(Shared())

    private struct Shared {
        var stopping = false
        var replaceRequested = false
        var browserPID: pid_t?
        var stopped = false
    }

    /// Listens at `socketPath` (its folder must be private to this user) and serves on a thread
    /// of its own until `stop()`.
    public init(socketPath: String, launcher: @escaping Launcher) throws(ChromeDriver.StartFailure) {
        guard let listener = LocalSocket.listen(path: socketPath) else {
            throw .init(description: "could not listen at \(socketPath): \(String(cString: strerror(errno)))")
        }
        var fds: [Int32] = [0, 0]
        guard robotci_pipe_nonblocking(&fds) == 0 else {
            close(listener)
            throw .init(description: "could not make the relay's wake pipe: \(String(cString: strerror(errno)))")
        }
        self.socketPath = socketPath
        self.listener = listener
        self.wake = (fds[0], fds[1])
        self.launcher = launcher
        let thread = Thread { [self] in RelayLoop(relay: self).run() }
        thread.name = "robotci-devtools-relay"
        thread.start()
    }

    /// The browser's pid while one runs.
    public var browserPID: pid_t? { state.withLock { $0.browserPID } }

    /// Kills the browser (after a batch that hung); the next connection's hello starts a new one.
    public func replaceBrowser() {
        state.withLock { $0.replaceRequested = true }
        poke()
    }

    /// Kills the browser, closes the socket and ends the thread; returns once all are done.
    public func stop() {
        state.withLock { $0.stopping = true }
        poke()
        while !state.withLock({ $0.stopped }) { usleep(2_000) }
        unlink(socketPath)
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    /// The loop's view of the shared flags: what it must do now.
    fileprivate func takeRequests() -> (stop: Bool, replace: Bool) {
        state.withLock { shared in
            defer { shared.replaceRequested = false }
            return (shared.stopping, shared.replaceRequested)
        }
    }

    fileprivate func setBrowserPID(_ pid: pid_t?) { state.withLock { $0.browserPID = pid } }

    fileprivate func finished() {
        close(listener)
        close(wake.read)
        close(wake.write)
        state.withLock { $0.stopped = true }
    }

    fileprivate var listenerFD: Int32 { listener }
    fileprivate var wakeFD: Int32 { wake.read }
    fileprivate func launch(_ arguments: [String], _ generation: Int) throws(ChromeDriver.StartFailure) -> ChromiumProcess {
        try launcher(arguments, generation)
    }
}

/// The first message of a connection to a `DevToolsRelay`, and its answer. Both are JSON
/// objects under one key no DevTools message has, NUL-terminated like the rest.
public enum RelayHello {
    /// The key of both messages.
    public static let key = "robotci.browser"

    /// The hello a client sends: the browser it needs, and (`fresh`) that the running one
    /// stopped answering it and must be replaced.
    public static func request(arguments: [String], fresh: Bool = false) -> [UInt8] {
        encode([key: ["arguments": arguments, "fresh": fresh]])
    }

    /// Reads a hello; nil when `message` is not one.
    public static func request(in message: [UInt8]) -> (arguments: [String], fresh: Bool)? {
        let object = (try? JSONSerialization.jsonObject(with: Data(message))) as? [String: Any]
        guard let body = object?[key] as? [String: Any], let arguments = body["arguments"] as? [String] else { return nil }
        return (arguments, body["fresh"] as? Bool ?? false)
    }

    /// The answer: the browser's pid and how many browsers the relay started, or why none runs.
    public static func answer(pid: pid_t?, generation: Int, error: String?) -> [UInt8] {
        var body: [String: Any] = ["generation": generation]
        if let pid { body["pid"] = Int(pid) }
        if let error { body["error"] = error }
        return encode([key: body])
    }

    /// Reads an answer: (pid, generation) or the relay's error.
    public static func answer(in message: [UInt8]) -> Result<(pid: Int32, generation: Int), AnswerError> {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(message))) as? [String: Any],
            let body = object[key] as? [String: Any]
        else { return .failure(AnswerError(description: "the relay's answer is not a hello answer")) }
        if let error = body["error"] as? String { return .failure(AnswerError(description: error)) }
        guard let pid = (body["pid"] as? NSNumber)?.int32Value, let generation = (body["generation"] as? NSNumber)?.intValue
        else { return .failure(AnswerError(description: "the relay's answer names no browser")) }
        return .success((pid, generation))
    }

    /// Why the relay could not give a browser.
    public struct AnswerError: Error, CustomStringConvertible {
        public var description: String
    }

    private static func encode(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)) + [0]
    }
}

/// The relay's thread: one `poll` over the listener, the wake pipe, the connected test
/// process and the browser's output. Everything here belongs to that thread.
private final class RelayLoop {
    let relay: DevToolsRelay
    var browser: ChromiumProcess?
    var browserArguments: [String]?
    var generation = 0
    var fromBrowser = DevToolsFrames()
    var client: Int32 = -1
    var greeted = false
    var fromClient = DevToolsFrames()
    var toClient: [UInt8] = []
    /// Where reads land, kept: the relay reads every message of every test, and allocating
    /// and zeroing a buffer per read was work on that path.
    var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    /// Past this much unread output the connected process is not reading: it is dropped.
    let clientBacklogLimit = 256 << 20

    init(relay: DevToolsRelay) {
        self.relay = relay
    }

    func run() {
        while true {
            let requests = relay.takeRequests()
            if requests.stop {
                dropClient()
                stopBrowser()
                relay.finished()
                return
            }
            if requests.replace {
                dropClient()
                stopBrowser()
            }
            serveOnce()
        }
    }

    private func serveOnce() {
        var fds = [pollfd(fd: relay.listenerFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: relay.wakeFD, events: Int16(POLLIN), revents: 0)]
        if client >= 0 {
            fds.append(pollfd(fd: client, events: Int16(POLLIN) | (toClient.isEmpty ? 0 : Int16(POLLOUT)), revents: 0))
        }
        let clientIndex = client >= 0 ? fds.count - 1 : nil
        if let browser { fds.append(pollfd(fd: browser.channel, events: Int16(POLLIN), revents: 0)) }
        let browserIndex = browser != nil ? fds.count - 1 : nil
        guard poll(&fds, nfds_t(fds.count), 1_000) > 0 else { return }
        if fds[1].revents != 0 { drainWake() }
        if let browserIndex, fds[browserIndex].revents != 0 { readBrowser() }
        if let clientIndex, client >= 0 {
            let events = fds[clientIndex].revents
            if events & Int16(POLLOUT) != 0 { flushClient() }
            if events & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 { readClient() }
        }
        if fds[0].revents != 0 { accept() }
    }

    private func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(relay.wakeFD, &bytes, bytes.count) > 0 {}
    }

    /// A new connection replaces the current one (the shard's next batch); another user's is refused.
    private func accept() {
        let fd = robotci_accept_nonblocking(relay.listenerFD)
        guard fd >= 0 else { return }
        guard LocalSocket.peerUser(fd) == geteuid() else {
            close(fd)
            return
        }
        dropClient()
        client = fd
    }

    private func dropClient() {
        if client >= 0 { close(client) }
        client = -1
        greeted = false
        fromClient.dropPending()
        toClient.removeAll(keepingCapacity: false)
    }

    private func readClient() {
        let count = readBuffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0, let messages = try? fromClient.append(readBuffer[0..<count]) else {
            dropClient()
            return
        }
        for message in messages {
            if !greeted {
                greet(message)
            } else if !sendToBrowser(message) {
                dropClient()
            }
            if client < 0 { return }
        }
    }

    /// Answers a connection's first message: a browser with the switches it names.
    private func greet(_ message: [UInt8]) {
        guard let (arguments, fresh) = RelayHello.request(in: message) else {
            toClient += RelayHello.answer(pid: nil, generation: generation, error: "the first message was not a robotci hello")
            flushClient()
            dropClient()
            return
        }
        do throws(ChromeDriver.StartFailure) {
            if fresh { stopBrowser() }
            try ensureBrowser(arguments)
            greeted = true
            toClient += RelayHello.answer(pid: browser?.process.pid, generation: generation, error: nil)
        } catch {
            toClient += RelayHello.answer(pid: nil, generation: generation, error: error.description)
        }
        flushClient()
    }

    private func ensureBrowser(_ arguments: [String]) throws(ChromeDriver.StartFailure) {
        if let browser, browser.process.tryWait() == nil, browserArguments == arguments { return }
        stopBrowser()
        generation += 1
        let started = try relay.launch(arguments, generation)
        _ = fcntl(started.channel, F_SETFL, fcntl(started.channel, F_GETFL) | O_NONBLOCK)
        browser = started
        browserArguments = arguments
        fromBrowser = DevToolsFrames()
        relay.setBrowserPID(started.process.pid)
    }

    private func stopBrowser() {
        guard let browser else { return }
        self.browser = nil
        browserArguments = nil
        browser.stop()
        relay.setBrowserPID(nil)
    }

    /// Writes one whole message to the browser; false when it cannot take it within 30 s
    /// (a browser that stopped reading is killed) or is gone.
    private func sendToBrowser(_ message: [UInt8]) -> Bool {
        guard let browser else { return false }
        let bytes = message + [0]
        var offset = 0
        let deadline = Date().addingTimeInterval(30)
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBufferPointer { send(browser.channel, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0, errno == EAGAIN || errno == EINTR, Date() < deadline else {
                stopBrowser()
                return false
            }
            var out = pollfd(fd: browser.channel, events: Int16(POLLOUT), revents: 0)
            _ = poll(&out, 1, 100)
        }
        return true
    }

    /// Passes the browser's whole messages to the connected process; with none, reads them away.
    private func readBrowser() {
        guard let browser else { return }
        let count = readBuffer.withUnsafeMutableBytes { read(browser.channel, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0, let messages = try? fromBrowser.append(readBuffer[0..<count]) else {
            // The browser exited or crashed: the connected process learns it at once.
            stopBrowser()
            dropClient()
            return
        }
        guard client >= 0, greeted else { return }
        for message in messages {
            toClient += message
            toClient.append(0)
        }
        if toClient.count > clientBacklogLimit {
            dropClient()
        } else {
            flushClient()
        }
    }

    private func flushClient() {
        guard client >= 0 else { return }
        while !toClient.isEmpty {
            let written = toClient.withUnsafeBufferPointer { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                toClient.removeFirst(written)
                continue
            }
            if written < 0 && (errno == EAGAIN || errno == EINTR) { return }
            dropClient()
            return
        }
    }
}
