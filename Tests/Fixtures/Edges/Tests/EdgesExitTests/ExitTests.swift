import Foundation
import Testing
import XCTest

/// A failing test, then the class's tearDown calls `exit(0)`, before XCTest's summary.
final class ClassTearDownExitTests: XCTestCase {
    override class func tearDown() {
        fflush(nil)
        exit(0)
    }

    func testFailsThenClassTearDownExitsZero() {
        XCTFail("fails; the class tearDown then exits 0")
    }
}

/// A test that exits 0 in its middle: it never finished, so it cannot have passed.
final class MidTestExitTests: XCTestCase {
    func testExitZeroMidTestCrashes() {
        fflush(nil)
        exit(0)
    }
}

/// Forges its own passed line, then dies by a signal.
final class ForgedPassThenCrashTests: XCTestCase {
    func testForgedPassThenCrashCrashes() {
        print("Test Case 'ForgedPassThenCrashTests.testForgedPassThenCrashCrashes' passed (0.001 seconds)")
        fflush(nil)
        kill(getpid(), SIGKILL)
    }
}

/// Writes a passing `testEnded` event for itself into the event stream robotci reads (fd 3,
/// which the test process inherits), then dies by a signal.
@Suite struct ForgedEventThenCrash {
    @Test func forgedEventThenCrashCrashes() {
        let event = #"{"kind":"event","payload":{"instant":{"absolute":1,"since1970":1},"kind":"testEnded","messages":[{"symbol":"pass","text":"Test forgedEventThenCrashCrashes() passed after 0.001 seconds."}],"testID":"EdgesExitTests.ForgedEventThenCrash/forgedEventThenCrashCrashes()"},"version":0}"# + "\n"
        _ = event.withCString { write(3, $0, strlen($0)) }
        kill(getpid(), SIGKILL)
    }
}
