import ProcessToolkit

/// How to start a WebDriver server (chromedriver, WPEWebDriver): the program, the port it
/// serves on 127.0.0.1, its log, and the process group, environment and network namespace it
/// runs in. One value for `ChromeDriver.start` and `WebKitDriver.start`.
public struct DriverLaunch: Sendable {
    public var executable: String
    public var port: Int
    /// Where its stdout and stderr are appended.
    public var logPath: String
    /// The process group it joins.
    public var group: ChildProcess.Options.Group
    /// Its environment; nil: this process's.
    public var environment: [String: String]?
    /// The network namespace it runs in; nil: this process's.
    public var networkNamespace: NetworkNamespace?

    public init(
        executable: String, port: Int, logPath: String, group: ChildProcess.Options.Group,
        environment: [String: String]? = nil, networkNamespace: NetworkNamespace? = nil
    ) {
        self.executable = executable
        self.port = port
        self.logPath = logPath
        self.group = group
        self.environment = environment
        self.networkNamespace = networkNamespace
    }
}
