import CLibCurl
import Foundation

/// A blocking HTTP/1.1 client over one libcurl easy handle.
///
/// The handle is created in `init` and freed in `deinit`; its connection cache
/// survives between requests, so consecutive requests to the same host reuse one
/// keep-alive connection. Not `Sendable`: use one client per thread of control.
package final class HTTPClient {
    /// Timeout for a whole request when the request sets none, in seconds.
    package var defaultTimeout: Double
    /// Timeout for establishing a connection, in seconds.
    package var connectTimeout: Double

    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    // Everything libcurl points into during a transfer lives as long as the handle.
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var responseBody = Data()
    private var responseHeaders: [(name: String, value: String)] = []

    package init(defaultTimeout: Double = 30, connectTimeout: Double = 5) throws(HTTPClientError) {
        try Self.globalInit.get()
        guard let handle = curl_easy_init() else {
            throw .setup("curl_easy_init returned no handle")
        }
        self.handle = handle
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        self.errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        self.defaultTimeout = defaultTimeout
        self.connectTimeout = connectTimeout
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Sends `request` and waits for the whole response.
    package func send(_ request: HTTPRequest) throws(HTTPClientError) -> HTTPResponse {
        // Reset options but keep live connections and caches (curl_easy_reset's contract).
        curl_easy_reset(handle)
        curl_slist_free_all(headerList)
        headerList = nil
        responseBody = Data()
        responseHeaders = []
        errorBuffer[0] = 0

        let url = request.url
        let timeout = request.timeout ?? defaultTimeout
        try set(CURLOPT_URL, string: url, url: url)
        try set(CURLOPT_NOSIGNAL, long: 1, url: url)
        try set(CURLOPT_TIMEOUT_MS, long: Milliseconds.of(timeout), url: url)
        try set(CURLOPT_CONNECTTIMEOUT_MS, long: Milliseconds.of(connectTimeout), url: url)
        try set(CURLOPT_TCP_NODELAY, long: 1, url: url)
        try check(robotci_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), url: url)

        let method = request.method.uppercased()
        if let body = request.body {
            try set(CURLOPT_POST, long: 1, url: url)
            try set(CURLOPT_POSTFIELDSIZE, long: body.count, url: url)
            // COPYPOSTFIELDS copies the bytes: nothing to keep alive after this call.
            let code = body.withUnsafeBytes { bytes in
                robotci_curl_setopt_pointer(
                    handle, CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorBuffer)))
            }
            try check(code, url: url)
            if method != "POST" { try set(CURLOPT_CUSTOMREQUEST, string: method, url: url) }
        } else if method == "HEAD" {
            try set(CURLOPT_NOBODY, long: 1, url: url)
        } else if method != "GET" {
            try set(CURLOPT_CUSTOMREQUEST, string: method, url: url)
        }

        var lines = request.headers.map { "\($0.name): \($0.value)" }
        lines.append("Expect:")  // no 100-continue round trip for larger bodies
        for line in lines {
            guard let appended = curl_slist_append(headerList, line) else {
                throw .setup("could not allocate header \(line)", url: url)
            }
            headerList = appended
        }
        try check(robotci_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), url: url)

        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try check(robotci_curl_setopt_write_function(handle, httpClientWriteBody), url: url)
        try check(robotci_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, userdata), url: url)
        try check(robotci_curl_setopt_header_function(handle, httpClientWriteHeader), url: url)
        try check(robotci_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, userdata), url: url)

        let result = withExtendedLifetime(self) { curl_easy_perform(handle) }
        if result == CURLE_OPERATION_TIMEDOUT {
            throw .timedOut(after: timeout, url: url)
        }
        try check(result, url: url)

        var status = 0
        try check(robotci_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status), url: url)
        var connects = 0
        try check(robotci_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects), url: url)
        return HTTPResponse(status: status, headers: responseHeaders, body: responseBody, newConnections: connects)
    }

    fileprivate func appendBody(_ pointer: UnsafeRawPointer, count: Int) {
        responseBody.append(pointer.assumingMemoryBound(to: UInt8.self), count: count)
    }

    fileprivate func appendHeader(_ pointer: UnsafeRawPointer, count: Int) {
        let bytes = UnsafeRawBufferPointer(start: pointer, count: count)
        let line = String(decoding: bytes, as: UTF8.self)
        // A new status line starts a new header block (redirects, 100-continue).
        if line.hasPrefix("HTTP/") {
            responseHeaders = []
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        responseHeaders.append((name: name, value: value))
    }

    private func set(_ option: CURLoption, long value: Int, url: String) throws(HTTPClientError) {
        try check(robotci_curl_setopt_long(handle, option, value), url: url)
    }

    private func set(_ option: CURLoption, string value: String, url: String) throws(HTTPClientError) {
        try check(robotci_curl_setopt_string(handle, option, value), url: url)
    }

    private func check(_ code: CURLcode, url: String) throws(HTTPClientError) {
        guard code != CURLE_OK else { return }
        let detail = errorBuffer[0] != 0
            ? String(cString: errorBuffer)
            : String(cString: curl_easy_strerror(code))
        throw .curl(code: Int32(code.rawValue), detail: detail, url: url)
    }

    // curl_global_init is not thread-safe; a static let runs it exactly once.
    private static let globalInit: Result<Void, HTTPClientError> = {
        let code = curl_global_init(Int(CURL_GLOBAL_ALL))
        guard code == CURLE_OK else {
            return .failure(.setup("curl_global_init failed: \(String(cString: curl_easy_strerror(code)))"))
        }
        return .success(())
    }()
}

private func httpClientWriteBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let userdata else { return 0 }
    let client = Unmanaged<HTTPClient>.fromOpaque(userdata).takeUnretainedValue()
    client.appendBody(data, count: size * count)
    return size * count
}

private func httpClientWriteHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let userdata else { return 0 }
    let client = Unmanaged<HTTPClient>.fromOpaque(userdata).takeUnretainedValue()
    client.appendHeader(data, count: size * count)
    return size * count
}
