// The report data's lookup tables: each repeated string (class name, source file, machine,
// artifact kind, test name) and each artifact folder is written once and referred to by index.

/// Strings stored once and referred to by index (class names, source files, machines).
struct Interner {
    private(set) var values: [String] = []
    private var indices: [String: Int] = [:]

    mutating func index(_ s: String) -> Int {
        if let i = indices[s] { return i }
        indices[s] = values.count
        values.append(s)
        return values.count - 1
    }
}

struct Tables {
    var classes = Interner()
    var files = Interner()
    var machines = Interner()
    var kinds = Interner()
    var names = Interner()
    var dirs = FolderTrie()
}

/// Folders stored as `[parent, name]` so `attachments/<test>/<attempt>/` costs a few bytes
/// per attempt instead of the whole path per artifact.
struct FolderTrie {
    private(set) var entries: [(parent: Int, name: String)] = []
    private var indices: [Substring: Int] = [:]

    /// Folder index (-1 for none) and file name of a `/`-separated path.
    mutating func split(_ path: String) -> (dir: Int, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (-1, path) }
        return (index(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    private mutating func index(_ folder: Substring) -> Int {
        if let i = indices[folder] { return i }
        let parent: Int
        let name: Substring
        if let slash = folder.lastIndex(of: "/") {
            parent = index(folder[..<slash])
            name = folder[folder.index(after: slash)...]
        } else {
            parent = -1
            name = folder
        }
        entries.append((parent, String(name)))
        indices[folder] = entries.count - 1
        return entries.count - 1
    }
}
