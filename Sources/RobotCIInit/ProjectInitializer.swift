import Foundation

/// `robotci init`: writes a team's UI test target, robotci.yml, CI workflow and (without an
/// app URL) a sample page into a folder. It never overwrites: a file that exists is left
/// alone and named, so running it again is safe and changes nothing.
public struct ProjectInitializer {
    public struct Options: Sendable {
        public var directory: URL
        public var appURL: String?
        public var dependency: RobotCIDependency
        public var robotciVersion: String

        public init(directory: URL, appURL: String?, dependency: RobotCIDependency, robotciVersion: String) {
            self.directory = directory
            self.appURL = appURL
            self.dependency = dependency
            self.robotciVersion = robotciVersion
        }
    }

    /// What init did, file by file, for the command to print.
    public struct Report: Equatable, Sendable {
        /// Files created, relative to the folder.
        public var written: [String] = []
        /// Files that existed and were not touched.
        public var leftAlone: [String] = []
        /// The existing Package.swift gained the test target (and the dependency).
        public var editedManifest = false
        /// Set when the existing Package.swift could not be edited safely: why not.
        public var manualReason: String?
        /// Then: the lines to add to it by hand.
        public var manualLines = ""
        /// The test target's name.
        public var target = ""
        /// How many robot tests the suite has.
        public var testCount = 0
    }

    public static let workflowPath = ".github/workflows/ui-tests.yml"

    let options: Options

    public init(options: Options) { self.options = options }

    public func run() throws -> Report {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: options.directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InitError.notADirectory(options.directory.path)
        }
        let app = try appChoice()
        let names = SuiteNames(folderName: options.directory.lastPathComponent)
        var report = Report(target: names.target, testCount: 2)

        let manifestURL = options.directory.appendingPathComponent("Package.swift")
        let existingManifest = try? String(contentsOf: manifestURL, encoding: .utf8)
        if let existingManifest {
            let editor = ManifestEditor(names: names, dependency: options.dependency)
            switch editor.edit(existingManifest) {
            case .alreadyThere:
                report.leftAlone.append("Package.swift")
            case .edited(let text):
                try write(text, to: "Package.swift", replacing: true)
                report.editedManifest = true
            case .manual(let reason):
                report.leftAlone.append("Package.swift")
                report.manualReason = reason
                report.manualLines = manualLines(names)
            }
        }

        var files: [(path: String, contents: String)] = []
        if existingManifest == nil {
            files.append(("Package.swift", ProjectTemplates.packageManifest(names, dependency: options.dependency, robotciVersion: options.robotciVersion)))
        }
        files += SuiteTemplates.files(names, app: app)
        if app == .samplePage { files.append(("sample-app/index.html", ProjectTemplates.samplePage)) }
        files.append((".gitignore", ProjectTemplates.gitignore))
        files.append(("robotci.yml", ProjectTemplates.config(names, addedToExistingPackage: existingManifest != nil)))
        files.append((Self.workflowPath, ProjectTemplates.githubWorkflow(dependency: options.dependency, robotciVersion: options.robotciVersion)))

        for file in files {
            if fm.fileExists(atPath: options.directory.appendingPathComponent(file.path).path) {
                report.leftAlone.append(file.path)
            } else {
                try write(file.contents, to: file.path, replacing: false)
                report.written.append(file.path)
            }
        }
        return report
    }

    private func appChoice() throws -> SuiteTemplates.App {
        guard let text = options.appURL else { return .samplePage }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              ["http", "https", "file"].contains(scheme) else { throw InitError.badAppURL(text) }
        return .url(text)
    }

    /// The lines a person adds by hand when the manifest is not safe to edit.
    private func manualLines(_ names: SuiteNames) -> String {
        """
        // swift-tools-version:\(ProjectTemplates.toolsVersion) (at least)
        // in Package(dependencies: [ … ]):
                \(options.dependency.packageLine),
        // in Package(targets: [ … ]):
        \(ProjectTemplates.testTarget(names, dependency: options.dependency))
        """
    }

    /// Writes one file; `replacing` only for the manifest robotci init has just edited.
    /// A new file is created exclusively, so a file that appeared meanwhile is never clobbered.
    private func write(_ text: String, to relativePath: String, replacing: Bool) throws {
        let url = options.directory.appendingPathComponent(relativePath)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: replacing ? [.atomic] : [.withoutOverwriting])
        } catch {
            throw InitError.cannotWrite(url.path, (error as NSError).localizedDescription)
        }
    }
}
