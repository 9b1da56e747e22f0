#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import MockServer

@Suite("Request log")
struct RequestLogPrinterTests {
    @Test("one line per request: request line, status, route or default, error")
    func lines() {
        let request = MockRequest(method: .GET, path: "/character", query: "page=2")
        let matched = RecordedRequest(request: request, response: .status(.ok), matchedRoute: "GET /character")
        #expect(RequestLogPrinter.line(for: matched).hasPrefix("GET /character?page=2 -> 200 (GET /character, "))
        let unmatched = RecordedRequest(request: request, response: .status(.notFound), matchedRoute: nil)
        #expect(RequestLogPrinter.line(for: unmatched).contains("-> 404 (no route, default, "))
        let failed = RecordedRequest(request: request, response: .status(.internalServerError), matchedRoute: "catch-all", error: "boom")
        #expect(RequestLogPrinter.line(for: failed).hasSuffix(": boom"))
    }

    @Test("batched lines reach the file descriptor in order on flush and after the interval")
    func batching() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let printer = RequestLogPrinter(fileDescriptor: ends[1], flushInterval: .milliseconds(10))
        printer.print("one")
        printer.print("two")
        try await Task.sleep(for: .milliseconds(100))
        printer.print("three")
        printer.flush()
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "one\ntwo\nthree\n")
    }
}
