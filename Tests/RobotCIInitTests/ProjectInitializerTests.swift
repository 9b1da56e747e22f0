import XCTest
@testable import RobotCIInit

/// What `robotci init` writes into a folder, without building it (InitEndToEndTests builds and runs it).
final class ProjectInitializerTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("robotci-init-\(UUID().uuidString.prefix(8))/shop")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
    }

    private func initialize(appURL: String? = nil) throws -> ProjectInitializer.Report {
        try ProjectInitializer(options: .init(
            directory: folder, appURL: appURL,
            dependency: .url(RobotCIDependency.publishedURL, version: "0.1.0"), robotciVersion: "0.1.0")).run()
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    func testWithAnAppURLTheTestsOpenItAndNoSamplePageIsWritten() throws {
        let report = try initialize(appURL: "http://127.0.0.1:3000/")
        XCTAssertFalse(report.written.contains("sample-app/index.html"))
        XCTAssertTrue(try read("Tests/ShopUITests/Shared/ShopUITestCase.swift").contains(#"URL(string: "http://127.0.0.1:3000/")"#))
        XCTAssertTrue(try read("Package.swift").contains(#".package(url: "https://github.com/robotci/robotci", from: "0.1.0")"#))
        XCTAssertTrue(try read(ProjectInitializer.workflowPath).contains("git clone --depth 1 --branch '0.1.0' 'https://github.com/robotci/robotci'"))
    }

    func testABadAppURLIsRefusedBeforeAnythingIsWritten() throws {
        XCTAssertThrowsError(try initialize(appURL: "localhost:3000")) { error in
            XCTAssertTrue((error as? InitError)?.message.contains("--app-url 'localhost:3000'") == true, "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testAnExistingPackageGainsTheTargetAndItsOtherFilesStay() throws {
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "Shop",
                targets: [
                    .target(name: "Shop"),
                ]
            )
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("Package.swift"))
        try Data("# ours\n".utf8).write(to: folder.appendingPathComponent("robotci.yml"))
        let report = try initialize()
        XCTAssertTrue(report.editedManifest)
        XCTAssertTrue(report.leftAlone.contains("robotci.yml"))
        XCTAssertEqual(try read("robotci.yml"), "# ours\n")
        let edited = try read("Package.swift")
        XCTAssertTrue(edited.contains(#"name: "ShopUITests""#) && edited.contains(".target(name: \"Shop\")"), edited)

        let again = try initialize()
        XCTAssertEqual(again.written, [])
        XCTAssertFalse(again.editedManifest)
        XCTAssertEqual(try read("Package.swift"), edited)
    }

    func testAManifestItCannotReadIsLeftAloneWithTheLinesToAdd() throws {
        let manifest = "// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"Shop\", targets: allTargets)\n"
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("Package.swift"))
        let report = try initialize()
        XCTAssertEqual(try read("Package.swift"), manifest)
        XCTAssertNotNil(report.manualReason)
        XCTAssertTrue(report.manualLines.contains(#".product(name: "RobotKit", package: "robotci")"#), report.manualLines)
    }
}
