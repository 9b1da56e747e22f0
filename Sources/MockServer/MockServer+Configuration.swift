extension MockServer {
    /// Settings that rarely change; the defaults suit UI tests.
    public struct Configuration: Sendable {
        /// The answer when no route matches: `404` with an empty body.
        public var defaultResponse: MockResponse
        /// Request bodies over this many bytes are refused with `413` (default 16 MiB).
        public var maxBodySize: Int
        /// How many requests the journal keeps before dropping the oldest (default 100,000).
        public var maxRecordedRequests: Int
        /// Called on an event loop after each response is sent; keep it cheap.
        public var onResponse: (@Sendable (RecordedRequest) -> Void)?
        /// Serve ::1 beside 127.0.0.1 (default). Off, or on a host without IPv6, the server
        /// listens on 127.0.0.1 alone and `baseURL` is `http://127.0.0.1:PORT`.
        public var ipv6: Bool

        /// Creates a configuration.
        public init(
            defaultResponse: MockResponse = .status(.notFound),
            maxBodySize: Int = 16 * 1024 * 1024,
            maxRecordedRequests: Int = 100_000,
            onResponse: (@Sendable (RecordedRequest) -> Void)? = nil,
            ipv6: Bool = true
        ) {
            self.defaultResponse = defaultResponse
            self.maxBodySize = maxBodySize
            self.maxRecordedRequests = maxRecordedRequests
            self.onResponse = onResponse
            self.ipv6 = ipv6
        }
    }
}
