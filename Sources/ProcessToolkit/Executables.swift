import Foundation

/// Finding programs: an explicit override, known install paths, then `PATH`.
public enum Executables {
    /// `name` on `PATH` (of `environment`, default this process's); a name with a `/` is
    /// returned when it can be run.
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String?
    {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        return find(override: nil, candidates: [], names: [name], environment: environment)
    }

    /// `override` when set (and nothing else: a wrong override must not fall back silently, so
    /// nil when it cannot be run), else the first of `candidates` that can be run, else the
    /// first of `names` found on `PATH`.
    public static func find(override: String?, candidates: [String], names: [String],
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let files = FileManager.default
        if let override, !override.isEmpty {
            return files.isExecutableFile(atPath: override) ? override : nil
        }
        if let hit = candidates.first(where: files.isExecutableFile(atPath:)) { return hit }
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for name in names {
            for directory in path where files.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }
}
