/// What `robotci init` refuses, each message naming the input and how to fix it.
public struct InitError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public var description: String { message }

    static func badAppURL(_ text: String) -> InitError {
        InitError(message: "--app-url '\(text)' is not an http://, https:// or file:// URL; give the page the tests open, e.g. --app-url http://127.0.0.1:8080/")
    }

    static func notRobotCI(_ path: String) -> InitError {
        InitError(message: "--robotci '\(path)' has no robotci Package.swift (no RobotKit product found in \(path)/Package.swift); give the folder of a robotci checkout, or a git URL")
    }

    static func unsafeRobotCI(_ text: String, _ reason: String) -> InitError {
        let shown = String(String.UnicodeScalarView(text.unicodeScalars.prefix(200).map {
            $0.properties.generalCategory == .control ? "?" : $0
        }))
        return InitError(message: "--robotci '\(shown)' cannot be written safely into Package.swift and the CI workflow: \(reason); "
            + "give the folder of a robotci checkout or a git URL such as https://github.com/robotci/robotci")
    }

    static func notADirectory(_ path: String) -> InitError {
        InitError(message: "--directory '\(path)' is not a folder robotci init can write to; create it first or give another one")
    }

    static func cannotWrite(_ path: String, _ reason: String) -> InitError {
        InitError(message: "cannot write \(path): \(reason); check the folder's permissions and free space, then run robotci init again (it keeps what it already wrote)")
    }
}
