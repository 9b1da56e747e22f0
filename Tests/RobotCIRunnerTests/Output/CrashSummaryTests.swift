@testable import RobotCIRunner
import XCTest

final class CrashSummaryTests: XCTestCase {
    /// What swift-corelibs-xctest and the Swift 6 backtracer print when a test traps
    /// (taken from the Outcomes fixture, paths shortened).
    static let linuxBacktrace = """
        Test Case 'CrashTests.testB_Crashes' started at 2026-11-21 14:07:12.784
        about to crash
        Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range
        swift-runtime: failed to suspend thread 2341 while processing a crash; backtraces will be missing information

        *** Signal 4: Backtracing from 0x7f58d5b6df7f... done ***

        *** Program crashed: Illegal instruction at 0x00007f58d5b6df7f ***

        Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))

        Thread 0 "OutcomesPackage" crashed:

          0               0x00007f58d5b6df7f closure #1 in closure #1 in _assertionFailure(_:_:file:line:flags:) + 623 in libswiftCore.so
          1 [ra]          0x00007f58d5cf961f _assertionFailure(_:_:file:line:flags:) + 302 in libswiftCore.so
          2 [ra]          0x00007f58d61dcf65 specialized Array.subscript.getter + 84 in libswiftSwiftOnoneSupport.so
          3 [ra]          0x00005582c246ad18 CrashTests.testB_Crashes() + 215 in OutcomesPackageTests.xctest at /work/x/Tests/T.swift:28:19
          4 [ra] [system] 0x00005582c243e4cb implicit closure #4 in implicit closure #3 in variable initialization expression of static CrashTests.__allTests__CrashTests + 26 in OutcomesPackageTests.xctest at /work/x/.build/x86_64-unknown-linux-gnu/debug/OutcomesPackageDiscoveredTests.derived/OutcomesTests.swift
          5 [ra] [thunk]  0x00005582c243e41c thunk for @escaping @callee_guaranteed () -> () + 11 in OutcomesPackageTests.xctest at //<compiler-generated>
        ...

        Thread 1 "r-initiated-qos":

          0  0x00007f58d42dbf16 __futex_abstimed_wait_common + 198 in libc.so.6
        ...
        """

    func testRealSwiftBacktrace() {
        let summary = CrashSummary(output: Self.linuxBacktrace)
        XCTAssertEqual(summary, CrashSummary(reason: "Fatal error: Index out of range", file: "/work/x/Tests/T.swift", line: 28))
    }

    func testSystemThunkAndDerivedFramesAreSkipped() {
        let output = """
            Fatal error: Unexpectedly found nil while unwrapping an Optional value
              0 [ra] [system] 0x1 f() + 1 in X.xctest at /w/System/S.swift:1:1
              1 [ra] [thunk]  0x2 thunk + 1 in X.xctest at /w/Thunk.swift:2:2
              2 [ra]          0x3 g() + 1 in X.xctest at /w/.build/debug/XDiscoveredTests.derived/T.swift:3:3
              3 [ra]          0x4 h() + 1 in X.xctest at /w/Tests/Helpers.swift:44:7
              4 [ra]          0x5 i() + 1 in X.xctest at /w/Tests/T.swift:9:1
            """
        XCTAssertEqual(CrashSummary(output: output),
                       CrashSummary(reason: "Fatal error: Unexpectedly found nil while unwrapping an Optional value",
                                    file: "/w/Tests/Helpers.swift", line: 44))
    }

    func testProgramCrashedLineWhenThereIsNoFatalError() {
        let output = """
            *** Program crashed: Bad pointer dereference at 0x0000000000000000 ***
              0      0x0000 T.testSegv() + 10 in X.xctest at /w/Tests/T.swift:5:9
            """
        XCTAssertEqual(CrashSummary(output: output),
                       CrashSummary(reason: "Program crashed: Bad pointer dereference at 0x0000000000000000",
                                    file: "/w/Tests/T.swift", line: 5))
    }

    func testFatalErrorWinsOverTheLaterProgramCrashedLine() {
        let output = "x.swift:1: Fatal error: first\n*** Program crashed: Illegal instruction at 0x1 ***\nFatal error: second"
        XCTAssertEqual(CrashSummary(output: output).reason, "Fatal error: first")
    }

    func testProgramCrashedWithoutClosingStars() {
        XCTAssertEqual(CrashSummary(output: "*** Program crashed: Aborted").reason, "Program crashed: Aborted")
    }

    func testFramesWithoutLineNumbersOrNonSwiftFilesAreSkipped() {
        let output = """
              0 [ra] 0x1 f() in X.xctest at /w/Sources/C/shim.c:12:3
              1 [ra] 0x2 g() in X.xctest at /w/Tests/NoLine.swift
              2 [ra] 0x3 h() in X.xctest at /w/Tests/T.swift:77:1
            """
        let summary = CrashSummary(output: output)
        XCTAssertNil(summary.reason)
        XCTAssertEqual(summary.file, "/w/Tests/T.swift")
        XCTAssertEqual(summary.line, 77)
    }

    func testNothingUseful() {
        XCTAssertEqual(CrashSummary(output: ""), CrashSummary(reason: nil, file: nil, line: nil))
        XCTAssertEqual(CrashSummary(output: "just output\nmore output at home\n"), CrashSummary(reason: nil, file: nil, line: nil))
    }
}

private extension CrashSummary {
    init(reason: String?, file: String?, line: Int?) {
        self.init(output: "")
        self.reason = reason
        self.file = file
        self.line = line
    }
}

/// pytest's faulthandler output (captured from a real segfaulting test) names the reason and the test's frame.
final class PythonCrashSummaryTests: XCTestCase {
    func testFaulthandlerOutput() {
        let output = """
        Fatal Python error: Segmentation fault

        Current thread 0x00007f9b305bbb80 (most recent call first):
          File "/root/.pyenv/versions/3.11.7/lib/python3.11/ctypes/__init__.py", line 519 in string_at
          File "/work/Tests/Fixtures/Pytest/tests/ui/test_faults.py", line 8 in test_crashes
          File "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/_pytest/python.py", line 166 in pytest_pyfunc_call
        """
        let s = CrashSummary(output: output)
        XCTAssertEqual(s.reason, "Fatal Python error: Segmentation fault")
        XCTAssertEqual(s.file, "/work/Tests/Fixtures/Pytest/tests/ui/test_faults.py")
        XCTAssertEqual(s.line, 8)
    }
}
