/// Errors of the runner, each with a message that says what to do. (Configuration problems
/// are `ConfigError`s, wherever they are found.)
public enum RunnerError: Error, CustomStringConvertible, Equatable {
    case spawn(String, String)
    case buildFailed(String)
    case noTestBundle(String)
    case discoveryFailed(String, String)
    case noTests(String)
    /// The framework listed something robotci cannot plan (the listing's own words).
    case unplannable(String, String)
    case invalidRegex(String, String)
    case report(String)
    /// `network-isolation: on` where no network namespace can be made (the reason).
    case noNetworkNamespace(String)
    /// `--browsers` names an engine whose stack is not installed (what is missing, what to install).
    case missingBrowser(String)
    /// SIGINT/SIGTERM before any test ran (e.g. during the build).
    case interrupted

    public var description: String {
        switch self {
        case .spawn(let exe, let why): return "cannot start \(exe): \(why)"
        case .buildFailed(let package): return "the build of \(package) failed (compiler output above); fix it, or pass --skip-build to run the last build"
        case .noTestBundle(let dir): return "no .xctest bundle in \(dir): does the package have a test target? build it with 'swift build --build-tests' or drop --skip-build"
        case .discoveryFailed(let bundle, let output): return "listing the tests of \(bundle) failed:\n\(output)"
        case .noTests(let why): return "no tests to run: \(why)"
        case .unplannable(let bundle, let why): return "cannot plan the tests of \(bundle): \(why)"
        case .invalidRegex(let flag, let pattern): return "\(flag) '\(pattern)' is not a valid regular expression"
        case .report(let message): return message
        case .noNetworkNamespace(let why): return "network-isolation is on but no network namespace can be made: \(why); run as root or where the kernel allows user namespaces, or set network-isolation to auto or off"
        case .missingBrowser(let why): return "--browsers: \(why); no test ran"
        case .interrupted: return "interrupted before any test ran"
        }
    }

    /// Exit code for this error: 130 for an interrupt, else 2 (a usage, config or build problem).
    public var exitCode: Int32 { self == .interrupted ? 130 : 2 }
}
