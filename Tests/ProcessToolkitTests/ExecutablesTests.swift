import Foundation
import BrowserTools
import ProcessToolkit
import XCTest

final class ExecutablesTests: XCTestCase {
    func testFindsOnThePathOfTheGivenEnvironment() {
        XCTAssertEqual(Executables.find("sh", environment: ["PATH": "/nonexistent:/bin"]), "/bin/sh")
        XCTAssertNil(Executables.find("sh", environment: ["PATH": "/nonexistent"]))
        XCTAssertEqual(Executables.find("/bin/sh"), "/bin/sh")
        XCTAssertNil(Executables.find("/nonexistent/sh"))
    }

    func testAnOverrideWinsAndAWrongOneDoesNotFallBack() {
        XCTAssertEqual(Executables.find(override: "/bin/sh", candidates: ["/bin/ls"], names: ["ls"]), "/bin/sh")
        XCTAssertNil(Executables.find(override: "/nonexistent/x", candidates: ["/bin/ls"], names: ["ls"]))
        XCTAssertEqual(Executables.find(override: "", candidates: ["/nonexistent/ls", "/bin/ls"], names: []), "/bin/ls")
    }

    func testBrowserInstallationNamesWhatIsMissing() {
        XCTAssertThrowsError(try BrowserInstallation.locate(environment: ["PATH": "/nonexistent", "CHROME_BIN": "/nonexistent/c",
                                                                          "CHROMEDRIVER": "/nonexistent/d"])) { error in
            XCTAssertEqual("\(error)", "chromium and chromedriver are not installed: \(BrowserInstallation.installHint)")
        }
        XCTAssertNil(BrowserInstallation.chromedriver(environment: ["CHROMEDRIVER": "/nonexistent/d"]))
        XCTAssertEqual(BrowserInstallation.chromedriver(environment: ["CHROMEDRIVER": "/bin/sh"]), "/bin/sh")
    }
}
