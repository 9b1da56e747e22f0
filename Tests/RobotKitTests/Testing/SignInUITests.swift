import Foundation
import MockServer
import RobotKit
import XCTest

/// Reference 000's style: a `UITestCase` counts the requests the app made. The page's
/// `fetch` with a JSON body makes Chromium send a CORS preflight (`OPTIONS /session`)
/// first; the count must still be 1, and the journal file must list the preflight, marked.
final class SignInUITests: UITestCase {
    override var appURL: URL? { Fixture.url("signin.html") }

    func testSignInPostsTheSessionOnce() async throws {
        await serverMock.stubJSON(.GET, "/me", json: #"{"name":"Alice"}"#)
        await serverMock.stubJSON(.POST, "/session", json: #"{"token":"t"}"#, status: .created)
        launch()
        app.buttons["signIn.button"].tap()
        XCTAssertTrue(app.staticTexts["session.status"].waitForExistence(timeout: 10))

        _ = try await serverMock.waitForRequest(method: .POST, path: "/session", timeout: .seconds(5))
        let count = await serverMock.requests(matching: "/session").count
        XCTAssertEqual(count, 1)
        let options = await serverMock.requests(method: .OPTIONS, path: "/session")
        XCTAssertEqual(options.count, 0)

        // The browser did send a preflight (else this test proves nothing): the journal file has it.
        try serverMock.writeJournal()
        let data = try Data(contentsOf: artifactsDirectory.appendingPathComponent("mock-requests.json"))
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let session = entries.filter { $0["path"] as? String == "/session" }
        XCTAssertEqual(session.map { $0["method"] as? String }, ["OPTIONS", "POST"])
        XCTAssertEqual(session.map { $0["preflight"] as? Bool }, [true, false])
    }
}
