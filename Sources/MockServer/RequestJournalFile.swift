import Foundation
import WorkerContract

/// Writes the request journal as `mock-requests.json`, the file the HTML report reads.
///
/// The file is a JSON array, one object per request in arrival order:
/// `method`, `path`, `query` (string or null), `headers` (object; repeated fields joined
/// with `, `; credentials masked: `SensitiveHeader`), `body` + `bodyEncoding` (`utf8` or `base64`; the
/// first `maxRecordedBodySize` bytes), `bodySize` (the full body's bytes), `time` (ISO 8601, UTC, ms),
/// `matchedRoute` (`GET /character/:id`, or null when nothing matched), `status`
/// (null if the connection closed before the answer), `error` (null unless it failed),
/// `preflight` (true for a CORS preflight the server answered itself: listed here, never
/// in `requests`).
enum RequestJournalFile {
    /// The journal's file name inside the artifacts folder.
    static let fileName = ArtifactFile.mockRequests

    private struct Entry: Encodable {
        let method: String
        let path: String
        let query: String?
        let headers: [String: String]
        let body: String
        let bodyEncoding: String
        let bodySize: Int
        let time: String
        let matchedRoute: String?
        let status: Int?
        let error: String?
        /// A CORS preflight the server answered itself (not in `requests`).
        let preflight: Bool

        // Explicit so that nil values are written as null rather than left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(method, forKey: .method)
            try container.encode(path, forKey: .path)
            try container.encode(query, forKey: .query)
            try container.encode(headers, forKey: .headers)
            try container.encode(body, forKey: .body)
            try container.encode(bodyEncoding, forKey: .bodyEncoding)
            try container.encode(bodySize, forKey: .bodySize)
            try container.encode(time, forKey: .time)
            try container.encode(matchedRoute, forKey: .matchedRoute)
            try container.encode(status, forKey: .status)
            try container.encode(error, forKey: .error)
            try container.encode(preflight, forKey: .preflight)
        }

        private enum CodingKeys: String, CodingKey {
            case method, path, query, headers, body, bodyEncoding, bodySize, time, matchedRoute, status, error, preflight
        }
    }

    /// The journal as JSON bytes.
    static func encode(_ entries: [RequestJournal.Entry]) throws -> Data {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let rows = entries.map { entry in
            let text = entry.request.body == nil ? "" : entry.request.bodyString
            return Entry(
                method: entry.request.method.rawValue,
                path: entry.request.path,
                query: entry.request.query,
                // Credentials a test's app sent (Authorization, Cookie…) stay out of the file
                // and so out of the report, which inlines it.
                headers: SensitiveHeader.masked(entry.request.headers),
                body: text ?? (entry.request.body ?? Data()).base64EncodedString(),
                bodyEncoding: text == nil ? "base64" : "utf8",
                bodySize: entry.bodySize,
                time: formatter.string(from: entry.timestamp),
                matchedRoute: entry.matchedRoute,
                status: entry.answer?.response.status.code,
                error: entry.answer?.error,
                preflight: entry.isPreflight
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(rows)
    }

    /// Writes `entries` to `directory/mock-requests.json`, creating the folder if needed.
    static func write(_ entries: [RequestJournal.Entry], to directory: URL) throws {
        let file = directory.appendingPathComponent(fileName)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try encode(entries).write(to: file, options: .atomic)
        } catch {
            throw MockServerError.journalNotWritten(path: file.path, reason: error.localizedDescription)
        }
    }
}
