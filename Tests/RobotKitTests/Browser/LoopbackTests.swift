import Foundation
@testable import RobotKit
import XCTest

/// The browser driver is reachable from this machine only: every socket listening on its
/// port (read from the kernel's table, not from its own word) is bound to 127.0.0.1 or ::1.
final class LoopbackTests: XCTestCase {
    func testChromedriverListensOnLoopbackOnly() throws {
        let endpoint = try ChromeDriverService.shared.endpoint()
        let port = try XCTUnwrap(URLComponents(string: endpoint.baseURL)?.port)
        XCTAssertTrue(endpoint.baseURL.hasPrefix("http://127.0.0.1:"), endpoint.baseURL)
        let loopback: Set<String> = ["0100007F", "00000000000000000000000001000000"]
        var bound: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let rows = (try? String(contentsOfFile: table, encoding: .utf8))?.split(separator: "\n").dropFirst() ?? []
            for row in rows {
                let columns = row.split(separator: " ")
                // columns[1] is local "ADDRESS:PORT" in hex, columns[3] the state (0A: listening).
                guard columns.count > 3, columns[3] == "0A" else { continue }
                let local = columns[1].split(separator: ":")
                if local.count == 2, Int(local[1], radix: 16) == port { bound.append(String(local[0])) }
            }
        }
        XCTAssertFalse(bound.isEmpty, "chromedriver on \(port) is listening")
        for address in bound { XCTAssertTrue(loopback.contains(address), "chromedriver also listens on \(address)") }
    }
}
