import Foundation
import Synchronization
@testable import MockServer

/// A server on a free port whose journal goes to a fresh temporary folder, so tests
/// running in parallel (or under robotci, with its environment) never share anything.
/// The folder is removed when the test process exits (a test may read the journal to its end).
func makeServer(configuration: MockServer.Configuration = .init()) async throws -> (MockServer, URL) {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("mockserver-tests-\(UUID().uuidString)")
    TestFolders.removeAtExit(folder)
    let server = try await MockServer.create(port: 0, artifactsDirectory: folder, configuration: configuration)
    return (server, folder)
}

/// Folders removed when the test process exits.
enum TestFolders {
    private static let folders = Mutex<[URL]>([])
    private static let registered = Mutex(false)

    static func removeAtExit(_ folder: URL) {
        folders.withLock { $0.append(folder) }
        let first = registered.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first {
            atexit { for folder in TestFolders.folders.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) } }
        }
    }
}

/// A temporary folder holding `files` (path → contents), removed by the caller.
func makeFolder(_ files: [String: Data]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockserver-fixture-\(UUID().uuidString)")
    for (path, contents) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: url)
    }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
