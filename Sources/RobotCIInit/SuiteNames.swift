import Foundation

/// The names of the generated suite, from the team's folder name (`my-shop` → `MyShop`).
struct SuiteNames: Equatable {
    /// The package name when robotci init writes the Package.swift.
    let package: String
    /// The test target (and folder under Tests/).
    let target: String
    /// The suite's base class over RobotKit's `UITestCase`. It must not be named `UITestCase`
    /// itself: a class shadowing its superclass's name crashes SwiftPM's test discovery on Linux.
    let baseClass: String

    init(folderName: String) {
        let words = folderName.split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        var name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if name.isEmpty || name.first?.isNumber == true { name = "App" + name }
        package = name
        target = name + "UITests"
        baseClass = name + "UITestCase"
    }
}
