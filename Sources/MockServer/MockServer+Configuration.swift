extension MockServer {
    /// Settings that rarely change; the defaults suit UI tests.
    public struct Configuration: Sendable {
        /// The answer when no route matches: `404` with an empty body.
        public var defaultResponse: MockResponse
        /// Request bodies over this many bytes are refused with `413` (default 16 MiB): at the
        /// request head when `Content-Length` says so, without reading the body; a chunked
        /// body as soon as it passes the limit. The connection is closed after the `413`.
        public var maxBodySize: Int
        /// How many requests the journal keeps before dropping the oldest (default 100,000).
        public var maxRecordedRequests: Int
        /// How much of each body the journal keeps (default 1 MiB): a longer body is recorded
        /// cut to its first bytes, with its full size (``RecordedRequest/bodySize``). The route's
        /// handler always gets the whole body.
        public var maxRecordedBodySize: Int
        /// How many bytes of bodies, paths and headers the journal keeps in all (default 64 MiB)
        /// before dropping the oldest requests, whatever their count.
        public var maxRecordedBytes: Int
        /// Called on an event loop after each response is sent; keep it cheap.
        public var onResponse: (@Sendable (RecordedRequest) -> Void)?
        /// Serve ::1 beside 127.0.0.1 (default). Off, or on a host without IPv6, the server
        /// listens on 127.0.0.1 alone and `baseURL` is `http://127.0.0.1:PORT`.
        public var ipv6: Bool
        /// How long a connection may wait for the client's next complete request (default
        /// 30 s): counted from the connection's start or its last answer, not reset by a byte,
        /// so a client sending a request slowly is cut off too. Never counted while the server
        /// is answering (a route's `delay` may be longer).
        public var idleTimeout: Duration
        /// How many connections may be open at once (default 256); the next ones are answered
        /// `503` and closed, and the server says so once on standard error.
        public var maxConnections: Int
        /// Origins, besides loopback ones, whose pages may read the responses (CORS). Loopback
        /// origins (`http://127.0.0.1:*`, `http://localhost:*`, `http://[::1]:*`, https too)
        /// and the page RobotKit launched in this process are always allowed. Write
        /// `scheme://host[:port]` (`https://app.example.com`), `scheme://host:*` for any port,
        /// `"null"` for pages opened from disk and every other opaque origin (sandboxed frames;
        /// it covers `file://` too), `"file://"` for pages opened from disk by a Chromium with
        /// `--allow-file-access-from-files` only, or `"*"` for every origin (the permissive
        /// `Access-Control-Allow-Origin: *` of earlier versions).
        public var allowedOrigins: [String]
        /// `Host` names, besides loopback ones, the server answers (`app.test`, no port); `"*"`
        /// for every name. 127.0.0.0/8, `localhost` and `[::1]` are always answered; a request
        /// for any other host is answered `421 Misdirected Request`, so a page that reaches the
        /// mock through DNS rebinding (its own name pointed at 127.0.0.1) reads nothing.
        public var allowedHosts: [String]
        /// Where warnings go (connection limit reached, an origin refused); standard error
        /// when nil. For tests.
        var warningHandler: (@Sendable (String) -> Void)?

        /// Creates a configuration.
        public init(
            defaultResponse: MockResponse = .status(.notFound),
            maxBodySize: Int = 16 * 1024 * 1024,
            maxRecordedRequests: Int = 100_000,
            maxRecordedBodySize: Int = 1 << 20,
            maxRecordedBytes: Int = 64 << 20,
            onResponse: (@Sendable (RecordedRequest) -> Void)? = nil,
            ipv6: Bool = true,
            idleTimeout: Duration = .seconds(30),
            maxConnections: Int = 256,
            allowedOrigins: [String] = [],
            allowedHosts: [String] = []
        ) {
            self.defaultResponse = defaultResponse
            self.maxBodySize = maxBodySize
            self.maxRecordedRequests = maxRecordedRequests
            self.maxRecordedBodySize = maxRecordedBodySize
            self.maxRecordedBytes = maxRecordedBytes
            self.onResponse = onResponse
            self.ipv6 = ipv6
            self.idleTimeout = idleTimeout
            self.maxConnections = maxConnections
            self.allowedOrigins = allowedOrigins
            self.allowedHosts = allowedHosts
        }

        /// Throws ``MockServerError`` `.invalidConfiguration` naming the setting at fault.
        func validate() throws(MockServerError) {
            if maxBodySize < 0 {
                throw MockServerError.invalidConfiguration("maxBodySize must be 0 or more bytes, got \(maxBodySize)")
            }
            if maxRecordedBodySize < 0 || maxRecordedBytes < 0 {
                throw MockServerError.invalidConfiguration(
                    "maxRecordedBodySize and maxRecordedBytes must be 0 or more bytes, got \(maxRecordedBodySize) and \(maxRecordedBytes)")
            }
            if idleTimeout <= .zero {
                throw MockServerError.invalidConfiguration("idleTimeout must be longer than zero, got \(idleTimeout)")
            }
            if maxConnections < 1 {
                throw MockServerError.invalidConfiguration("maxConnections must be 1 or more, got \(maxConnections)")
            }
            for host in allowedHosts where host != "*" && (HostPolicy.hostName(host) != host.lowercased() || host.hasSuffix(".")) {
                throw MockServerError.invalidConfiguration(
                    "allowedHosts entry '\(CORS.printable(host))' is not a host name: write the name alone, without scheme, "
                        + "port or path (app.test, [fd00::1]), or \"*\" for every host")
            }
            for origin in allowedOrigins where OriginRule(origin) == nil {
                throw MockServerError.invalidConfiguration(
                    "allowedOrigins entry '\(origin)' is not an origin: write scheme://host[:port] with no path or "
                        + "trailing slash (https://app.example.com), scheme://host:* for any port, \"file://\" "
                        + "or \"null\" for pages opened from disk, or \"*\" for every origin")
            }
        }
    }
}
