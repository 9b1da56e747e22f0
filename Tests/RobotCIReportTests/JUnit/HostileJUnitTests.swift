import Foundation
import RobotCICore
@testable import RobotCIReport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// JUnit files robotci did not write and cannot trust (issue 27): entity bombs, external
/// entities, FIFOs, huge files and times.
final class HostileJUnitTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Hostile")

    /// Before: libxml2 ran with XML_PARSE_HUGE and the tree's text expanded `&lol9;` (10⁹ "lol"s):
    /// 30 s and 4 GB, then an allocation failure. Now the DOCTYPE is refused before its entities.
    func testBillionLaughsIsRefusedAtOnce() throws {
        let url = Self.fixtures.appendingPathComponent("billion-laughs.xml")
        let started = Date()
        XCTAssertThrowsError(try JUnitReader.read(url, machine: nil)) { error in
            let message = (error as? XMLError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains(url.path) && message.contains("<!DOCTYPE") && message.contains("remove"), message)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    }

    func testExternalEntityIsNeverRead() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-xxe-\(UUID().uuidString)")
        try "TOP-SECRET-CONTENT".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        for doctype in [
            #"<!DOCTYPE testsuite [<!ENTITY x SYSTEM "file://\#(secret.path)">]>"#,
            #"<!DOCTYPE testsuite SYSTEM "file://\#(secret.path)">"#,
            #"<!DOCTYPE testsuite [<!ENTITY % p SYSTEM "file://\#(secret.path)"> %p;]>"#,
        ] {
            let xml = #"<?xml version="1.0"?>\#(doctype)<testsuite name="s"><testcase classname="a" name="b"><failure message="&x;">&x;</failure></testcase></testsuite>"#
            XCTAssertThrowsError(try JUnitReader.cases(Data(xml.utf8), name: "x.xml", machine: nil), doctype) { error in
                XCTAssertFalse("\(error)".contains("TOP-SECRET"), "\(error)")
                XCTAssertTrue("\(error)".contains("<!DOCTYPE"), "\(error)")
            }
        }
        // Predefined and character references are no DTD and still read.
        let plain = #"<testsuite name="s"><testcase classname="a" name="b&amp;c&#x41;"/></testsuite>"#
        XCTAssertEqual(try JUnitReader.cases(Data(plain.utf8), name: "p.xml", machine: nil).map(\.name), ["b&cA"])
    }

    /// Before: `Data(contentsOf:)` on a FIFO waited for a writer forever (the command driver's
    /// `{junit}` is a path the test command controls).
    func testFIFOIsAnErrorNotAHang() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-fifo-\(UUID().uuidString).xml")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let started = Date()
        XCTAssertThrowsError(try JUnitReader.read(fifo, machine: nil)) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        XCTAssertEqual(RegularFile.kind(ofItemAt: fifo.path), .special("a FIFO"))
    }

    func testFileOverTheLimitIsRefusedWithoutReadingIt() throws {
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-big-\(UUID().uuidString).xml")
        XCTAssertTrue(FileManager.default.createFile(atPath: big.path, contents: Data(count: 4096)))
        defer { try? FileManager.default.removeItem(at: big) }
        XCTAssertThrowsError(try RegularFile.read(big.path, limit: 1000, what: "JUnit file")) { error in
            XCTAssertEqual((error as? RegularFileError)?.message.contains("is 4096 bytes, more than robotci reads (1000 bytes)"), true, "\(error)")
        }
        XCTAssertEqual(try RegularFile.read(big.path, limit: 4096).count, 4096)
    }

    /// Before: `time="3600000"` was read as 1000 hours and fed the command driver's budget.
    func testHugeTimeIsCapped() throws {
        let xml = #"<testsuite name="s"><testcase classname="A" name="t" time="3600000"/><testcase classname="A" name="u" time="1.5"/></testsuite>"#
        let records = try JUnitReader.parse(Data(xml.utf8), name: "t.xml", machine: nil)
        XCTAssertEqual(records.map { $0.attempts.map(\.duration) }, [[JUnitReader.maxTestSeconds], [1.5]])
    }
}
