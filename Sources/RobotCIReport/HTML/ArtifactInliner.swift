import Foundation
import RobotCICore

/// Any JSON document, decoded so an artifact can be re-written through `SafeJSONWriter`
/// (never copied into the page as raw text).
indirect enum JSONValue: Decodable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let v = try? c.decode(Bool.self) { self = .bool(v) }
        else if let v = try? c.decode(Double.self) { self = .number(v) }
        else if let v = try? c.decode(String.self) { self = .string(v) }
        else if let v = try? c.decode([JSONValue].self) { self = .array(v) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }
}

/// Reads the small artifacts the report shows inline (robot steps, mock requests,
/// accessibility tree, browser console, accessibility audit issues, failed snapshots) from the report folder, within a byte budget.
struct ArtifactInliner {
    enum Inlined {
        case json(JSONValue, cutItems: Int)
        case text(String, cutBytes: Int)
    }

    /// Kinds shown inline; everything else (screenshots, logs, DOM dumps) is linked.
    static let inlineKinds: Set<Artifact.Kind> = [.steps, .mock, .accessibility, .console, .trace, .audit, .snapshot]

    let directory: URL
    /// Bytes of artifact files still allowed into the page.
    var budget: Int
    /// Files still allowed to be read (keeps render time flat when every test has artifacts).
    var filesLeft: Int
    let maxFileBytes: Int
    let maxItems: Int
    let maxTextBytes: Int

    /// The artifact's content, or nil when it is not inlinable, missing, too big or over budget.
    mutating func inline(_ artifact: Artifact) -> Inlined? {
        guard Self.inlineKinds.contains(artifact.kind), budget > 0, filesLeft > 0 else { return nil }
        // Every look counts, found or not: missing files must not make rendering slow either.
        filesLeft -= 1
        // Regular files only, opened without blocking: a FIFO left as `console.log` would
        // otherwise stop the report from being written.
        guard let url = ReportPaths.resolve(artifact.path, in: directory) else { return nil }
        if artifact.kind == .trace {
            // Only what the attempt's card says; the steps stay in the viewer beside trace.json.
            guard let trace = try? TraceRetention.read(url) else { return nil }
            let summary = Self.summary(of: trace)
            budget -= 256
            return .json(summary, cutItems: 0)
        }
        if artifact.kind == .snapshot {
            // One object: what differed and the names of its three images.
            guard let data = try? RegularFile.read(url.path, limit: min(maxFileBytes, budget)),
                  case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: data)
            else { return nil }
            budget -= data.count
            return .json(.object(fields), cutItems: 0)
        }
        if isJSON(artifact.kind) {
            guard let data = try? RegularFile.read(url.path, limit: min(maxFileBytes, budget)),
                  case .array(let items)? = try? JSONDecoder().decode(JSONValue.self, from: data)
            else { return nil }
            budget -= data.count
            // The end of a run of steps or requests is where a failure shows; keep it.
            // A journal another tool (or an older MockServer) wrote may hold credentials.
            let kept = items.suffix(maxItems).map { artifact.kind == .mock ? Self.maskingHeaders($0) : $0 }
            return .json(.array(kept), cutItems: items.count - kept.count)
        }
        guard let (data, size) = try? RegularFile.readPrefix(url.path, maxBytes: min(maxTextBytes, budget)) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        budget -= data.count
        return .text(text, cutBytes: max(0, size - data.count))
    }

    /// A trace as the attempt's card shows it: how many steps, the failing one, and where the
    /// attempt parted from a passing one.
    static func summary(of trace: Trace) -> JSONValue {
        var fields: [String: JSONValue] = ["steps": .number(Double(trace.steps.count)), "viewer": .string(TraceViewer.fileName)]
        if let failed = trace.steps.first(where: { $0.outcome == "failed" }) {
            fields["failedStep"] = .number(Double(failed.index + 1))
            fields["failedLabel"] = .string(TraceDivergence.label(failed))
        }
        if let d = trace.firstDivergence {
            fields["divergence"] = .object(["step": .number(Double(d.step + 1)), "passingAttempt": .number(Double(d.passingAttempt)),
                                            "reason": .string(String(d.reason.prefix(300)))])
        }
        return .object(fields)
    }

    /// A journal entry with its `headers` object's credentials masked (`SensitiveHeader`).
    static func maskingHeaders(_ entry: JSONValue) -> JSONValue {
        guard case .object(var fields) = entry, case .object(let headers)? = fields["headers"] else { return entry }
        var masked = headers
        for (name, value) in headers where SensitiveHeader.isSensitive(name) {
            if case .string(let text) = value { masked[name] = .string(SensitiveHeader.masked(name: name, value: text)) }
            else { masked[name] = .string("***") }
        }
        fields["headers"] = .object(masked)
        return .object(fields)
    }

    private func isJSON(_ kind: Artifact.Kind) -> Bool { kind == .steps || kind == .mock || kind == .audit }
}

/// Artifact paths are relative to the report folder; these keep them there.
enum ReportPaths {
    /// The file for a report-relative path, or nil if the path is absolute, has a URL
    /// scheme or climbs out of `directory`.
    static func resolve(_ path: String, in directory: URL) -> URL? {
        guard isSafeRelative(path) else { return nil }
        let base = directory.standardizedFileURL
        let url = base.appendingPathComponent(path).standardizedFileURL
        guard url.path.hasPrefix(base.path.hasSuffix("/") ? base.path : base.path + "/") else { return nil }
        // A symbolic link inside the folder must not lead out of it either (e.g. to /etc/passwd).
        let realBase = base.resolvingSymlinksInPath().path
        guard url.resolvingSymlinksInPath().path.hasPrefix(realBase.hasSuffix("/") ? realBase : realBase + "/") else { return nil }
        return url
    }

    /// A path the page may use as a link: relative, no scheme, no `..` segment.
    static func isSafeRelative(_ path: String) -> Bool {
        var segmentStart = true
        var firstSegment = true
        var dots = 0
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "/"):
                if segmentStart && firstSegment { return false }  // leading slash
                if dots == 2 { return false }  // ".." segment
                segmentStart = true
                firstSegment = false
                dots = 0
                continue
            case UInt8(ascii: "\\"): return false
            case UInt8(ascii: ":") where firstSegment: return false  // a URL scheme
            case UInt8(ascii: "."): dots = segmentStart || dots > 0 ? dots + 1 : 0
            default: dots = -1
            }
            segmentStart = false
        }
        return !path.isEmpty && dots != 2
    }
}
