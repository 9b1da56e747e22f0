import Foundation
import ProcessToolkit
import Testing
@testable import MockServer

/// The journal's byte budget (issue 39): it kept every body whole (up to the 16 MiB limit)
/// for 125,000 requests. Now a body is stored cut to a prefix, with its full size, and the
/// oldest entries go once the stored bytes pass the budget. The handler still gets it all.
@Suite("Journal: bodies cut to a prefix, a byte budget")
struct JournalBudgetTests {
    @Test("a body over maxRecordedBodySize is recorded cut, with its full size; the handler gets all of it")
    func bodyCut() async throws {
        let (server, folder) = try await makeServer(configuration: .init(maxRecordedBodySize: 999))
        defer { try? FileManager.default.removeItem(at: folder) }
        let seen = Locked(0)
        await server.register(.POST, "/upload") { request in
            seen.withLock { $0 = request.body?.count ?? 0 }
            return .status(.ok)
        }
        let body = String(repeating: "é", count: 1500)  // 3000 bytes; byte 999 is inside a character
        #expect(try await fetch(server.port, "POST", "/upload", body: body).status == 200)
        #expect(seen.withLock { $0 } == 3000)
        let recorded = try #require(await server.requests.first)
        #expect(recorded.bodySize == 3000)
        #expect(recorded.isBodyTruncated)
        #expect(recorded.request.body?.count == 998, "cut where a character starts")
        #expect(recorded.request.bodyString == String(repeating: "é", count: 499))
        await server.stop()
        let data = try Data(contentsOf: folder.appendingPathComponent(RequestJournalFile.fileName))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(entries.first?["bodySize"] as? Int == 3000)
    }

    @Test("past maxRecordedBytes the oldest requests are dropped, the newest kept")
    func byteBudget() async throws {
        let journal = RequestJournal(capacity: 100_000, maxBodyBytes: 1 << 20, maxBytes: 4 << 20)
        let body = Data(repeating: 7, count: 1 << 20)
        for n in 0..<40 {
            let sequence = journal.append(request: MockRequest(method: .POST, path: "/\(n)", body: body), matchedRoute: nil)
            journal.complete(sequence, response: .status(.ok))
        }
        let kept = journal.answered
        #expect(kept.count >= 2 && kept.count <= 4, "\(kept.count) bodies of 1 MiB kept under a 4 MiB budget")
        #expect(kept.last?.path == "/39")
        #expect(journal.all.reduce(0) { $0 + $1.cost } <= 4 << 20)
    }

    @Test("requests refused for their origin or host count against the same budget")
    func refusedBounded() async throws {
        let (server, _) = try await makeServer(configuration: .init(maxRecordedBodySize: 100, maxRecordedBytes: 32 << 10))
        let port = await server.port
        let body = String(repeating: "x", count: 5000)
        for _ in 0..<200 {
            _ = try await fetch(port, "POST", "/nothing", headers: ["Origin": "https://evil.example"], body: body)
        }
        let recorded = await server.requests
        #expect(recorded.count < 200, "\(recorded.count) kept")
        #expect(recorded.allSatisfy { ($0.request.body?.count ?? 0) <= 100 && $0.bodySize == 5000 })
        await server.stop()
    }
}

