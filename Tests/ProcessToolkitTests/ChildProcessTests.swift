import Foundation
import ProcessToolkit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class ChildProcessTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("toolkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    func testPipedOutputMergesStdoutAndStderrAndReportsTheExitCode() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 7"])
        XCTAssertEqual(readAll(child.outputFD), "out\nerr\n")
        XCTAssertEqual(child.wait(), .exited(7))
        XCTAssertFalse(child.isRunning)
        XCTAssertEqual(child.tryWait(), .exited(7), "how it ended is kept once reaped")
    }

    func testOutputFileIsAppendedToAndNoPipeIsOpen() throws {
        let log = scratch.appendingPathComponent("log").path
        try Data("before\n".utf8).write(to: URL(fileURLWithPath: log))
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2"],
            options: .init(output: .file(log)))
        XCTAssertEqual(child.outputFD, -1)
        XCTAssertEqual(child.wait(), .exited(0))
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "before\nout\nerr\n")
    }

    func testEventChannelIsFileDescriptorThreeAndSeparateFromOutput() throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "echo printed; echo event >&3"],
            options: .init(eventChannel: true))
        XCTAssertGreaterThanOrEqual(child.eventFD, 0)
        XCTAssertEqual(readAll(child.outputFD), "printed\n")
        XCTAssertEqual(readAll(child.eventFD), "event\n")
        XCTAssertEqual(child.wait(), .exited(0))
    }

    func testWithoutAnEventChannelTheChildHasNoDescriptorThree() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo x >&3 && echo open || echo closed"])
        XCTAssertTrue(readAll(child.outputFD).hasSuffix("closed\n"))
        _ = child.wait()
    }

    /// A descriptor of the parent that is not close-on-exec (SwiftNIO's listening sockets are
    /// not) must not reach the child, or the child would keep the parent's port bound.
    func testTheChildInheritsNoDescriptorOfTheParent() throws {
        let opened = open("/dev/null", O_RDONLY)  // no O_CLOEXEC
        defer { close(opened) }
        // Far above the descriptors `ls` opens for itself.
        let leaked = dup2(opened, 200)
        XCTAssertEqual(leaked, 200)
        defer { close(leaked) }
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "ls /proc/self/fd"])
        let descriptors = Set(readAll(child.outputFD).split(separator: "\n").compactMap { Int32($0) })
        _ = child.wait()
        XCTAssertFalse(descriptors.contains(leaked), "fd \(leaked) leaked into the child: \(descriptors.sorted())")
    }

    func testOwnGroupIsTaggedRegisteredAndItsWholeTreeIsKilled() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "sleep 30 & echo $!; echo $ROBOTCI_PROCESS_TAG; wait"])
        XCTAssertEqual(getpgid(child.pid), child.pid, "the child leads a group of its own")
        XCTAssertTrue(ChildRegistry.shared.all.contains(child.pid))
        let tag = try XCTUnwrap(child.tag)
        XCTAssertTrue(tag.hasPrefix("\(getpid())-"), tag)
        var lines: [Substring] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var text = ""
        while lines.count < 2 {
            let n = read(child.outputFD, &buffer, buffer.count)
            guard n > 0 else { break }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
            lines = text.split(separator: "\n")
        }
        let sleeper = try XCTUnwrap(pid_t(lines.first ?? ""))
        XCTAssertEqual(lines.dropFirst().first.map(String.init), tag, "the tag is in the child's environment")
        child.killGroup()
        XCTAssertEqual(child.wait(), .signaled(SIGKILL))
        XCTAssertFalse(ChildRegistry.shared.all.contains(child.pid), "a reaped child leaves the registry")
        let deadline = Date().addingTimeInterval(5)
        while kill(sleeper, 0) == 0 && Date() < deadline { usleep(10_000) }
        XCTAssertNotEqual(kill(sleeper, 0), 0, "the group's background sleep (pid \(sleeper)) was killed too")
    }

    func testCallersGroupKeepsTheCallersTagAndIsNotRegistered() throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "echo ${ROBOTCI_PROCESS_TAG:-none}"],
            environment: ["PATH": "/usr/bin:/bin", "ROBOTCI_PROCESS_TAG": "parent-tag"],
            options: .init(group: .caller))
        XCTAssertNil(child.tag)
        XCTAssertEqual(getpgid(child.pid), getpgrp(), "the child stays in the caller's group")
        XCTAssertFalse(ChildRegistry.shared.all.contains(child.pid))
        XCTAssertEqual(readAll(child.outputFD), "parent-tag\n")
        XCTAssertEqual(child.wait(), .exited(0))
    }

    func testWorkingDirectoryAndEnvironmentAreTheGivenOnes() throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "pwd; echo $ONLY"], environment: ["ONLY": "this"],
            options: .init(workingDirectory: scratch.path))
        let lines = readAll(child.outputFD).split(separator: "\n").map(String.init)
        _ = child.wait()
        XCTAssertEqual(lines.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path },
                       scratch.resolvingSymlinksInPath().path)
        XCTAssertEqual(lines.last, "this")
    }

    func testAMissingProgramIsASpawnErrorNamingIt() {
        XCTAssertThrowsError(try ChildProcess(executable: "/nonexistent/program", arguments: [])) { error in
            XCTAssertEqual(error as? SpawnError, SpawnError(executable: "/nonexistent/program", reason: "No such file or directory"))
            XCTAssertEqual("\(error)", "cannot start /nonexistent/program: No such file or directory")
        }
    }

    /// With setpriv, the child's parent-death signal is SIGKILL (PR_GET_PDEATHSIG, as `/proc`
    /// shows no field for it: setpriv execs the program, so the child can report it itself
    /// only through a tool; python3 is on every machine this project supports).
    func testTheChildGetsAParentDeathSignalThroughSetpriv() throws {
        guard ChildProcess.setpriv != nil, let python = Executables.find("python3") else {
            throw XCTSkip("needs setpriv (util-linux) and python3")
        }
        let script = "import ctypes,signal; s=ctypes.c_int(); ctypes.CDLL(None).prctl(2, ctypes.byref(s)); print(s.value)"
        let with = try ChildProcess(executable: python, arguments: ["-c", script])
        XCTAssertEqual(readAll(with.outputFD), "\(SIGKILL)\n")
        _ = with.wait()
        let without = try ChildProcess(executable: python, arguments: ["-c", script], options: .init(parentDeathSignal: false))
        XCTAssertEqual(readAll(without.outputFD), "0\n")
        _ = without.wait()
    }

    /// A child spawned from `SpawnThread` outlives the short-lived thread that asked for it.
    func testAChildOfTheSpawnThreadOutlivesTheThreadThatAskedForIt() throws {
        let box = Locked<ChildProcess?>(nil)
        let asked = Thread {
            box.withLock {
                $0 = try? SpawnThread.shared.run { () throws(SpawnError) -> ChildProcess in
                    try ChildProcess(executable: "/bin/sleep", arguments: ["30"], options: .init(output: .file("/dev/null")))
                }
            }
        }
        asked.start()
        let deadline = Date().addingTimeInterval(5)
        while box.current == nil && Date() < deadline { usleep(10_000) }
        let child = try XCTUnwrap(box.current)
        usleep(300_000)  // the asking thread has ended by now
        XCTAssertTrue(child.isRunning, "the sleep died with the thread that asked for it")
        child.killGroup()
        XCTAssertEqual(child.wait(), .signaled(SIGKILL))
    }
}
