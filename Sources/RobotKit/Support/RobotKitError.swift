/// Why a RobotKit operation failed; the message says what to do about it.
public struct RobotKitError: Error, Equatable, CustomStringConvertible {
    private enum Kind: Equatable {
        case missingTool
        case driverStart
        case webDriver(code: String)
        case transport
        case noSession
        case artifacts
        case configuration
        case pageScript
        case unsupported
    }

    private let kind: Kind
    /// A lowercase, actionable explanation.
    public let message: String

    /// The W3C WebDriver error code (`no such element`, `javascript error`, …) when the driver sent one.
    public var webDriverCode: String? {
        if case .webDriver(let code) = kind { return code }
        return nil
    }

    static func missingTool(_ message: String) -> RobotKitError { .init(kind: .missingTool, message: message) }
    static func driverStart(_ message: String) -> RobotKitError { .init(kind: .driverStart, message: message) }
    static func webDriver(code: String, _ message: String) -> RobotKitError {
        .init(kind: .webDriver(code: code), message: message)
    }
    static func transport(_ message: String) -> RobotKitError { .init(kind: .transport, message: message) }
    static func noSession(_ message: String) -> RobotKitError { .init(kind: .noSession, message: message) }
    static func artifacts(_ message: String) -> RobotKitError { .init(kind: .artifacts, message: message) }
    static func configuration(_ message: String) -> RobotKitError { .init(kind: .configuration, message: message) }
    /// The page script answered what RobotKit cannot read: the two sides disagree.
    static func pageScript(_ message: String) -> RobotKitError { .init(kind: .pageScript, message: message) }

    /// The engine's browser cannot do this at all (WebKit's console log); the message names what it lacks.
    static func unsupported(_ message: String) -> RobotKitError { .init(kind: .unsupported, message: message) }

    /// True when the browser lacks the feature, as opposed to a failure of a feature it has.
    public var isUnsupported: Bool { kind == .unsupported }

    public var description: String { message }
}
