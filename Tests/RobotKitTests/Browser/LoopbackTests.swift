import Foundation
import LoopbackSockets
import ProcessToolkit
@testable import RobotKit
import XCTest

/// The browser driver is reachable from this machine only: every socket listening on its
/// port (read from the kernel's table, not from its own word) is bound to 127.0.0.1 or ::1.
final class LoopbackTests: XCTestCase {
    func testChromedriverListensOnLoopbackOnly() throws {
        let endpoint = try RobotKitProcess.current.driver.endpoint()
        let port = try XCTUnwrap(URLComponents(string: endpoint.baseURL)?.port)
        XCTAssertTrue(endpoint.baseURL.hasPrefix("http://127.0.0.1:"), endpoint.baseURL)
        let bound = SocketTable.listeners(port: port)
        XCTAssertFalse(bound.isEmpty, "chromedriver on \(port) is listening")
        for address in bound { XCTAssertTrue(address == "127.0.0.1" || address == "::1", "chromedriver also listens on \(address)") }
    }
}
