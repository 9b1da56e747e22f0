import Foundation

/// `webkit-session.json` in the shard's folder (`ROBOTCI_BROWSER_DIR`): the WebKit session a
/// shard's processes hand on to each other on robotci's warm WPEWebDriver. `clean` is true only
/// after the session's reset: a process that ended during a launch leaves it false, and the
/// next one deletes that session rather than take over another test's state.
enum KeptSessionFile {
    struct Entry: Codable, Equatable {
        var id: String
        var window: String
        var clean: Bool
    }

    static func read(_ file: URL) -> Entry? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return try? JSONDecoder().decode(Entry.self, from: data)
    }

    static func write(_ file: URL, id: String, window: String, clean: Bool) {
        guard let data = try? JSONEncoder().encode(Entry(id: id, window: window, clean: clean)) else { return }
        try? data.write(to: file, options: .atomic)
    }

    static func remove(_ file: URL) {
        try? FileManager.default.removeItem(at: file)
    }
}
