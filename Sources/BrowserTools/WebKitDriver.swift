import Foundation
import LoopbackSockets
import ProcessToolkit
#if canImport(Glibc)
import Glibc
#endif

/// WPE WebKit's W3C WebDriver server (`WPEWebDriver`, Debian's `wpewebkit-driver`) on
/// 127.0.0.1, and the headless browser it starts for a session (`cog`, WPE's reference
/// browser): the WebKit stack RobotKit drives. WPE was chosen over WebKitGTK's
/// `WebKitWebDriver` + MiniBrowser by measurement (docs/browsers.md): it is headless by itself
/// (no Xvfb to start and keep), and its sessions started faster for less CPU here.
public struct WebKitDriver: Sendable {
    public let process: ChildProcess
    public let port: Int
    /// Its stdout and stderr (and, through it, cog's and WebKit's helper processes').
    public let logPath: String

    /// `http://127.0.0.1:PORT`
    public var url: String { "http://127.0.0.1:\(port)" }

    /// The packages to install, named in every error about a missing piece.
    public static let installHint = "install them with `apt-get install wpewebkit-driver cog`"

    /// Where the stack lives on this machine.
    public struct Installation: Sendable, Equatable {
        public var driver: String
        public var browser: String
    }

    /// A piece of the stack is missing, or the driver did not start; the description says why.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Finds `WPEWebDriver` and `cog` (`WPEWEBDRIVER` and `COG_BIN` override the search).
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(Failure) -> Installation
    {
        let driver = Executables.find(
            override: environment["WPEWEBDRIVER"], candidates: ["/usr/bin/WPEWebDriver"], names: ["WPEWebDriver"],
            environment: environment)
        let browser = Executables.find(
            override: environment["COG_BIN"], candidates: ["/usr/bin/cog"], names: ["cog"], environment: environment)
        switch (driver, browser) {
        case (let driver?, let browser?):
            return Installation(driver: driver, browser: browser)
        case (nil, nil):
            throw Failure(description: "WebKit's WebDriver (WPEWebDriver) and browser (cog) are not installed: \(installHint)")
        case (nil, _):
            throw Failure(description: "WebKit's WebDriver (WPEWebDriver) is not installed (or set WPEWEBDRIVER): \(installHint)")
        case (_, nil):
            throw Failure(description: "WebKit's browser for WebDriver (cog) is not installed (or set COG_BIN): \(installHint)")
        }
    }

    /// The capabilities of a headless WPE session: cog in automation mode on its headless
    /// platform (no display), with WebKit settings (cog takes each as a switch) that match the
    /// Chromium RobotKit starts:
    /// - a `file://` app may read its mock server: WebKit sends `Origin: null` from a file,
    ///   which the mock rightly refuses (any sandboxed frame sends it), so file pages get
    ///   universal access instead, as Chromium's `--allow-file-access-from-files` gives them;
    /// - no back-forward cache (Chromium's is off too): Back loads the page afresh on both.
    public static func capabilities(browser: String) -> [String: Any] {
        let args = [
            "--automation", "--platform=headless", "--allow-file-access-from-file-urls=true",
            "--allow-universal-access-from-file-urls=true", "--enable-page-cache=false",
        ]
        return ["wpe:browserOptions": ["binary": browser, "args": args]]
    }

    /// Starts `launch.executable` on `launch.port`, output appended to `launch.logPath`, and waits
    /// until it accepts connections (at most `timeout` seconds, less if it exits first); on failure
    /// it is killed and reaped. WPEWebDriver binds 127.0.0.1 only. Spawned from the calling thread,
    /// so a caller on `SpawnThread` gives it a parent-death signal that holds. In a network namespace
    /// (a shard's, robotci's warm driver) nothing outside can connect: it is seen listening in
    /// its namespace's socket table instead.
    public static func start(_ launch: DriverLaunch, timeout: Double = 20) throws(Failure) -> WebKitDriver {
        let (executable, port, logPath, networkNamespace) = (launch.executable, launch.port, launch.logPath, launch.networkNamespace)
        let process: ChildProcess
        // cog and WebKit's processes inherit the driver's environment: the run's fonts (BrowserFonts).
        let environment = BrowserFonts.controlled(launch.environment ?? ProcessInfo.processInfo.environment,
                                                  folder: (logPath as NSString).deletingLastPathComponent)
        do {
            process = try ChildProcess(
                executable: executable, arguments: ["--port=\(port)"], environment: environment,
                options: ChildProcess.Options(output: .file(logPath), group: launch.group, networkNamespace: networkNamespace))
        } catch {
            throw Failure(description: "could not start \(executable): \(error)")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let end = process.tryWait() {
                throw Failure(description: "WPEWebDriver exited at start-up (\(end)); its log (\(logPath)):\n\(logTail(logPath))")
            }
            let listening = networkNamespace == nil
                ? Loopback.canConnect(port) : SocketTable.listeners(port: port, inNamespaceOf: process.pid).contains("127.0.0.1")
            if listening { return WebKitDriver(process: process, port: port, logPath: logPath) }
            usleep(10_000)
        }
        process.killGroup()
        _ = process.wait()
        throw Failure(description: "WPEWebDriver did not listen on 127.0.0.1:\(port) within \(String(format: "%g", timeout)) s; its log (\(logPath)):\n\(logTail(logPath))")
    }

    /// `folder/cog`: execs `browser` with a parent-death signal, so a killed driver takes its
    /// browser along (cog outlives a dead WPEWebDriver otherwise); `browser` itself without setpriv.
    public static func writeBrowserLauncher(browser: String, in folder: URL) throws(Failure) -> String {
        guard let setpriv = ChildProcess.setpriv else { return browser }
        let url = folder.appendingPathComponent("cog")
        let script = "#!/bin/sh\nexec '\(setpriv)' --pdeathsig KILL '\(browser)' \"$@\"\n"
        do {
            try Data(script.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        } catch {
            throw Failure(description: "could not write the cog launcher \(url.path): \(error)")
        }
        return url.path
    }

    /// The end of the log, for error messages.
    public func logTail(maxBytes: Int = 1500) -> String { Self.logTail(logPath, maxBytes: maxBytes) }

    private static func logTail(_ path: String, maxBytes: Int = 1500) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data.suffix(maxBytes), as: UTF8.self)
    }
}
