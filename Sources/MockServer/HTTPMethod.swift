/// An HTTP request method, spelled like SwiftMockServer's (`.GET`, `.POST`, …).
///
/// A struct rather than an enum so a request with an unusual method (`PROPFIND`)
/// is still served and recorded.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The method as it appears on the request line, upper-cased.
    public let rawValue: String

    /// Creates a method from its name; the name is upper-cased.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// A method already known to be upper-case (from NIO's parser), skipping the copy.
    init(verbatim rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method name, for example `GET`.
    public var description: String { rawValue }

    /// `GET`
    public static let GET = HTTPMethod(rawValue: "GET")
    /// `POST`
    public static let POST = HTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let PUT = HTTPMethod(rawValue: "PUT")
    /// `PATCH`
    public static let PATCH = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`
    public static let DELETE = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`
    public static let HEAD = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`
    public static let OPTIONS = HTTPMethod(rawValue: "OPTIONS")

    /// `CONNECT`
    public static let CONNECT = HTTPMethod(rawValue: "CONNECT")
    /// `TRACE`
    public static let TRACE = HTTPMethod(rawValue: "TRACE")

    /// The standard methods, as SwiftMockServer's enum lists them.
    public static let allCases: [HTTPMethod] = [.GET, .POST, .PUT, .PATCH, .DELETE, .HEAD, .OPTIONS, .CONNECT, .TRACE]

    /// The methods the scenario loader accepts by name.
    static let known: [HTTPMethod] = [.GET, .POST, .PUT, .PATCH, .DELETE, .HEAD, .OPTIONS]
}
