import Foundation
import ProcessToolkit
import RobotKit
import XCTest

// Snapshots through robotci, for bench/snapshots/run (ROBOTCI_SNAPSHOT_BENCH=1, baselines in
// ROBOTKIT_SNAPSHOTS_DIR): the fixture page that moves, checked whole and element by element
// with the public API only. SNAPSHOT_BENCH_BADGE_COLOR recolours one element (the badge),
// SNAPSHOT_BENCH_LINE=1 draws a 1-pixel line in the header, SNAPSHOT_BENCH_FIRST_ATTEMPT_COLOR
// recolours it in a first attempt only. Outside the bench they skip.

private let benchEnvironment = ProcessInfo.processInfo.environment

final class SnapshotBenchTests: XCTestCase {
    private var app: XCUIApplication!

    override func setUpWithError() throws {
        guard benchEnvironment["ROBOTCI_SNAPSHOT_BENCH"] == "1" else { throw XCTSkip("runs only from bench/snapshots/run") }
        app = XCUIApplication(url: Fixture.url("snapshot.html"))
        if let color = benchEnvironment["SNAPSHOT_BENCH_BADGE_COLOR"] { app.launchEnvironment["BADGE_COLOR"] = color }
        // A page that renders differently on the first attempt only: a flaky snapshot.
        if let color = benchEnvironment["SNAPSHOT_BENCH_FIRST_ATTEMPT_COLOR"], WorkerEnvironment().attempt == 1 {
            app.launchEnvironment["BADGE_COLOR"] = color
        }
        if benchEnvironment["SNAPSHOT_BENCH_LINE"] == "1" { app.launchEnvironment["LINE"] = "1" }
        app.launch()
    }

    override func tearDown() {
        app?.terminate()
        app = nil
        super.tearDown()
    }

    /// Shows the badge and the header.
    func testWholePage() {
        app.verifySnapshot(named: "page")
    }

    /// Shows the badge.
    func testProfileCard() {
        app.descendants(matching: .any)["profile"].verifySnapshot(named: "profile")
    }

    /// The badge alone.
    func testBadge() {
        app.descendants(matching: .any)["badge"].verifySnapshot(named: "badge")
    }

    /// The spinner, the pulse and the transition.
    func testActivityCard() {
        app.descendants(matching: .any)["activity"].verifySnapshot(named: "activity")
    }

    /// The focused field with accented text.
    func testSearchField() {
        app.textFields["query"].verifySnapshot(named: "field")
    }

    /// The gradient, the text shadow, the accented title and the finite intro animation.
    func testHeader() {
        app.descendants(matching: .any)["title"].verifySnapshot(named: "title", tolerance: SnapshotTolerance(color: 0.1, pixels: 0))
    }
}

/// What one `verifySnapshot` costs (ROBOTKIT_SNAPSHOT_COST=N calls of each kind, plain `swift
/// test`, so RobotKit's own Chromium is in this process's tree and its CPU is counted).
final class SnapshotCostTests: XCTestCase {
    func testCostPerCall() throws {
        guard let runs = benchEnvironment["ROBOTKIT_SNAPSHOT_COST"].flatMap(Int.init) else {
            throw XCTSkip("runs only from bench/snapshots/cost")
        }
        let app = XCUIApplication(url: Fixture.url("snapshot.html"))
        app.launch()
        defer { app.terminate() }
        // The baselines are recorded by the first call of each (ROBOTCI_UPDATE_SNAPSHOTS=missing).
        XCTAssertTrue(app.verifySnapshot(named: "page"))
        XCTAssertTrue(app.descendants(matching: .any)["activity"].verifySnapshot(named: "activity"))
        var tree = ProcessTreeLoad()
        for (kind, check) in [("viewport 1024x768", { app.verifySnapshot(named: "page") }),
                              ("element 252x156", { app.descendants(matching: .any)["activity"].verifySnapshot(named: "activity") })] {
            var walls: [Double] = []
            let cpuBefore = tree.read()?.cpu ?? 0
            for _ in 0..<runs {
                let started = Date()
                XCTAssertTrue(check())
                walls.append(Date().timeIntervalSince(started))
            }
            let cpu = ((tree.read()?.cpu ?? 0) - cpuBefore) / Double(runs)
            walls.sort()
            print(String(format: "snapshot-cost %@: median wall %.1f ms, p90 %.1f ms, CPU %.1f ms per call (test process + browser), %d calls",
                         kind, walls[walls.count / 2] * 1000, walls[walls.count * 9 / 10] * 1000, cpu * 1000, runs))
        }
    }
}
