import RobotCICore
@testable import RobotCIRunner
import XCTest

/// What a batch's environment says of its engine (`--browsers`): RobotKit picks the engine from
/// `ROBOTCI_BROWSER`, and a grid's URL wins over it, so robotci sets one and clears the other.
final class BrowserSelectionTests: XCTestCase {
    private let inherited = ["ROBOTCI_BROWSER": "webkit", "ROBOTCI_WEBDRIVER_URL": "http://old:4444", "PATH": "/bin"]

    func testEachEngineSetsItsVariableAndClearsTheOther() {
        var env = inherited
        BatchExecutor.select(.chromium, in: &env)
        XCTAssertEqual(env, ["ROBOTCI_BROWSER": "chromium", "PATH": "/bin"])
        env = inherited
        BatchExecutor.select(.webkit, in: &env)
        XCTAssertEqual(env, ["ROBOTCI_BROWSER": "webkit", "PATH": "/bin"])
        env = inherited
        BatchExecutor.select(.webDriver(url: "http://grid:4444/wd/hub"), in: &env)
        XCTAssertEqual(env, ["ROBOTCI_WEBDRIVER_URL": "http://grid:4444/wd/hub", "PATH": "/bin"])
    }

    /// A grid is outside any namespace of the shard's: `on` cannot hold with one, said before anything runs.
    func testAGridWithNetworkIsolationOnIsAConfigError() throws {
        var c = RunConfiguration(shards: 1)
        c.browsers = [.chromium, .webDriver(url: "http://grid:4444")]
        c.networkIsolation = .on
        XCTAssertThrowsError(try ConfigLoader.validate(c)) { error in
            XCTAssertTrue("\(error)".contains("network-isolation on do not go together"), "\(error)")
        }
        c.networkIsolation = .auto
        XCTAssertNoThrow(try ConfigLoader.validate(c))
    }

    /// A bad entry from a file names the file, the line and the key.
    func testABadEntryNamesItsSource() throws {
        var c = RunConfiguration(shards: 1)
        XCTAssertThrowsError(try ConfigLoader.apply([["browsers": (.list(["chromium", "safari"]), "robotci.yml:4 key 'browsers'")]], to: &c)) { error in
            XCTAssertTrue("\(error)".hasPrefix("robotci.yml:4 key 'browsers': browser 'safari' is not one robotci knows"), "\(error)")
        }
    }
}
