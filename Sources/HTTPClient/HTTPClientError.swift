/// A failed HTTP exchange: the libcurl error (or setup problem) and the URL it concerned.
package struct HTTPClientError: Error, Equatable, CustomStringConvertible {
    private enum Kind: Equatable {
        case curl(code: Int32, detail: String)
        case timedOut(seconds: Double)
        case setup(String)
    }

    private let kind: Kind
    /// The URL of the request that failed ("" when none was involved).
    package let url: String

    /// The libcurl result code, when libcurl reported the failure.
    package var curlCode: Int32? {
        if case .curl(let code, _) = kind { return code }
        return nil
    }

    /// True when the request ran past its timeout.
    package var isTimeout: Bool {
        if case .timedOut = kind { return true }
        return false
    }

    package static func curl(code: Int32, detail: String, url: String) -> HTTPClientError {
        HTTPClientError(kind: .curl(code: code, detail: detail), url: url)
    }

    package static func timedOut(after seconds: Double, url: String) -> HTTPClientError {
        HTTPClientError(kind: .timedOut(seconds: seconds), url: url)
    }

    package static func setup(_ message: String, url: String = "") -> HTTPClientError {
        HTTPClientError(kind: .setup(message), url: url)
    }

    package var description: String {
        switch kind {
        case .curl(let code, let detail):
            return "request to \(url) failed: \(detail) (curl error \(code))"
        case .timedOut(let seconds):
            return "request to \(url) timed out after \(seconds) s"
        case .setup(let message):
            return url.isEmpty ? "http client: \(message)" : "http client: \(message) (\(url))"
        }
    }
}
