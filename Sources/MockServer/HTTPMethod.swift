/// An HTTP request method, spelled like SwiftMockServer's (`.GET`, `.POST`, …).
///
/// A struct rather than an enum so a request with an unusual method (`PROPFIND`)
/// is still served and recorded.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The method as it appears on the request line, upper-cased.
    public let rawValue: String

    /// Creates a method from its name, upper-cased; `nil` when `rawValue` is not an HTTP
    /// method token (empty, or with spaces or separators). Any token is accepted, not only
    /// the standard methods, so `HTTPMethod(rawValue: "PROPFIND")` is a method here (it is
    /// `nil` in SwiftMockServer, whose `HTTPMethod` is an enum).
    public init?(rawValue: String) {
        let allowed = Set("!#$%&'*+-.^_`|~")
        guard !rawValue.isEmpty,
            rawValue.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || allowed.contains(Character($0))) })
        else { return nil }
        self.rawValue = rawValue.uppercased()
    }

    /// A method already known to be upper-case (from NIO's parser), skipping the copy.
    init(verbatim rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method name, for example `GET`.
    public var description: String { rawValue }

    /// `GET`
    public static let GET = HTTPMethod(verbatim: "GET")
    /// `POST`
    public static let POST = HTTPMethod(verbatim: "POST")
    /// `PUT`
    public static let PUT = HTTPMethod(verbatim: "PUT")
    /// `PATCH`
    public static let PATCH = HTTPMethod(verbatim: "PATCH")
    /// `DELETE`
    public static let DELETE = HTTPMethod(verbatim: "DELETE")
    /// `HEAD`
    public static let HEAD = HTTPMethod(verbatim: "HEAD")
    /// `OPTIONS`
    public static let OPTIONS = HTTPMethod(verbatim: "OPTIONS")

    /// `CONNECT`
    public static let CONNECT = HTTPMethod(verbatim: "CONNECT")
    /// `TRACE`
    public static let TRACE = HTTPMethod(verbatim: "TRACE")

    /// The standard methods, as SwiftMockServer's enum lists them.
    public static let allCases: [HTTPMethod] = [.GET, .POST, .PUT, .PATCH, .DELETE, .HEAD, .OPTIONS, .CONNECT, .TRACE]

    /// The methods the scenario loader accepts by name.
    static let known: [HTTPMethod] = [.GET, .POST, .PUT, .PATCH, .DELETE, .HEAD, .OPTIONS]
}
