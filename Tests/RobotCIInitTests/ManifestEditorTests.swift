import XCTest
@testable import RobotCIInit

/// The existing-package path of `robotci init`: edit only what is certainly understood.
final class ManifestEditorTests: XCTestCase {
    private let names = SuiteNames(folderName: "my-shop")
    private let dependency = RobotCIDependency.url("https://github.com/robotci/robotci", version: "0.1.0")

    func testNamesComeFromTheFolder() {
        XCTAssertEqual(names.target, "MyShopUITests")
        XCTAssertEqual(names.baseClass, "MyShopUITestCase")
        XCTAssertEqual(SuiteNames(folderName: "42").package, "App42")
    }

    func testAddsTargetAndDependencyToLiteralArrays() throws {
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Shop",
                dependencies: [
                    // a comment with targets: [ inside
                    .package(url: "https://example.com/a", from: "1.0.0"),
                ],
                targets: [
                    .target(name: "Shop", dependencies: []),
                    .testTarget(name: "ShopTests", dependencies: ["Shop"]),
                ]
            )
            """
        guard case .edited(let out) = ManifestEditor(names: names, dependency: dependency).edit(manifest) else {
            return XCTFail("expected an edit")
        }
        XCTAssertTrue(out.contains("""
                dependencies: [
                    .package(url: "https://github.com/robotci/robotci", from: "0.1.0"),
                    // a comment
            """), out)
        XCTAssertTrue(out.contains("targets: [\n        // Robot tests"), out)
        XCTAssertTrue(out.contains(#".testTarget(name: "ShopTests""#))
        XCTAssertEqual(ManifestEditor(names: names, dependency: dependency).edit(out), .alreadyThere)
    }

    func testAddsADependenciesArrayWhenThereIsNone() throws {
        let manifest = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Shop\", targets: [])\n"
        guard case .edited(let out) = ManifestEditor(names: names, dependency: dependency).edit(manifest) else {
            return XCTFail("expected an edit")
        }
        XCTAssertTrue(out.contains("dependencies: [\n        .package(url: \"https://github.com/robotci/robotci\", from: \"0.1.0\"),\n    ],\n    targets: ["), out)
    }

    func testLeavesManifestsItCannotReadToAPerson() {
        let editor = ManifestEditor(names: names, dependency: dependency)
        let variableTargets = "// swift-tools-version:6.0\nimport PackageDescription\nlet targets: [Target] = []\nlet package = Package(name: \"Shop\", targets: targets)\n"
        XCTAssertEqual(editor.edit(variableTargets), .manual("its `targets:` is not an array literal in the `Package(` call"))
        let old = "// swift-tools-version:5.5\nimport PackageDescription\nlet package = Package(name: \"Shop\", targets: [])\n"
        guard case .manual = editor.edit(old) else { return XCTFail("an old tools version is not edited") }
        let variableDependencies = "// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"S\", dependencies: deps, targets: [])\n"
        XCTAssertEqual(editor.edit(variableDependencies), .manual("its `dependencies:` is not an array literal in the `Package(` call"))
    }

    func testPathDependencyIsRelativeWhenTheFoldersShareAParent() {
        let from = URL(fileURLWithPath: "/home/me/src/shop"), to = URL(fileURLWithPath: "/home/me/src/robotci")
        XCTAssertEqual(RobotCIDependency.relativePath(from: from, to: to), "../robotci")
        XCTAssertEqual(RobotCIDependency.relativePath(from: URL(fileURLWithPath: "/tmp/x"), to: URL(fileURLWithPath: "/work/r")), "/work/r")
        XCTAssertEqual(RobotCIDependency.path("../robotci").packageLine, #".package(name: "robotci", path: "../robotci")"#)
    }
}
