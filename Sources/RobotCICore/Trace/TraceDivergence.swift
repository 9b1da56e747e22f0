/// Where a failing attempt first parts from a passing one of the same test: the step sequence,
/// the mock's answers, the page's visible text and the step's outcome are compared step by
/// step, and the first step that differs is named with what differed
/// (`GET /me answered 500 here, 200 in attempt 2`).
///
/// Requests are matched by method and path within one step either side: when a response lands
/// a moment later, the same request is recorded one step later, which is timing, not a
/// difference. Within a step, the mock's answers are looked at before the text, because a
/// different answer is the cause and a different page its effect; and before a step's text,
/// the next step's answers too: an action's page is seen when the next step looks (the trace
/// defers it), so a response that landed after the action but before that look is the cause
/// of what the action's step shows, though it is recorded with the next step.
public enum TraceDivergence {
    /// The first step of `failing` that differs from `passing` (attempt `passingAttempt`), or
    /// nil when the two traces agree step for step (the failure is then in no UI action).
    public static func first(failing: Trace, passing: Trace, passingAttempt: Int) -> Trace.Divergence? {
        let f = failing.steps, p = passing.steps
        let other = "attempt \(passingAttempt)"
        for i in 0..<max(f.count, p.count) {
            guard i < f.count else {
                // Every step of the failing attempt matched, and the passing one went on.
                let last = max(0, f.count - 1)
                return .init(step: last, passingAttempt: passingAttempt, passingStep: i,
                             reason: "this attempt ended after \(f.isEmpty ? "no step" : label(f[last])); \(other) went on to \(label(p[i]))")
            }
            guard i < p.count else {
                return .init(step: i, passingAttempt: passingAttempt, passingStep: max(0, p.count - 1),
                             reason: "\(label(f[i])) ran here; \(other) had ended after \(p.isEmpty ? "no step" : label(p[p.count - 1]))")
            }
            if f[i].name != p[i].name || comparable(f[i].target) != comparable(p[i].target) {
                return .init(step: i, passingAttempt: passingAttempt, passingStep: i,
                             reason: "this step is \(label(f[i])); in \(other) it is \(label(p[i]))")
            }
            if let reason = requestDifference(at: i, f, p, other: other) {
                return .init(step: i, passingAttempt: passingAttempt, passingStep: i, reason: reason)
            }
            if let reason = textDifference(f[i].text, p[i].text, other: other) {
                if i + 1 < min(f.count, p.count), let cause = requestDifference(at: i + 1, f, p, other: other) {
                    return .init(step: i + 1, passingAttempt: passingAttempt, passingStep: i + 1, reason: cause)
                }
                return .init(step: i, passingAttempt: passingAttempt, passingStep: i, reason: reason)
            }
            if f[i].outcome != p[i].outcome {
                let error = f[i].error.map { ": \(clip($0, 160))" } ?? ""
                return .init(step: i, passingAttempt: passingAttempt, passingStep: i,
                             reason: "\(label(f[i])) \(f[i].outcome) here\(error); it \(p[i].outcome) in \(other)")
            }
        }
        return nil
    }

    /// `tap buttons["load"]`, `launch`.
    public static func label(_ step: Trace.Step) -> String {
        step.target.isEmpty ? step.name : "\(step.name) \(step.target)"
    }

    /// A target with its URLs' port numbers left out: each shard has its own mock port, so
    /// `launch …?API_BASE_URL=http://[::1]:48485` on one shard is the same step as `…:40451`
    /// on another.
    static func comparable(_ target: String) -> String {
        var out = ""
        var rest = Substring(target)
        while let colon = rest.firstIndex(of: ":") {
            out += rest[..<colon]
            let after = rest[rest.index(after: colon)...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            // A port follows a URL's host: `//host`, with no `/`, space or quote since the `//`.
            let host = out.range(of: "//", options: .backwards).map { out[$0.upperBound...] }
            let inHost = host.map { !$0.isEmpty && !$0.contains { "/ \"'".contains($0) } } ?? false
            if inHost && (2...5).contains(digits.count) && after.dropFirst(digits.count).first.map({ !($0.isLetter || $0.isNumber) }) ?? true {
                out += ":*"
                rest = after.dropFirst(digits.count)
            } else {
                out += ":"
                rest = after
            }
        }
        return out + rest
    }

    private static func requestDifference(at i: Int, _ f: [Trace.Step], _ p: [Trace.Step], other: String) -> String? {
        let near = { (steps: [Trace.Step]) in steps[max(0, i - 1)...min(steps.count - 1, i + 1)].flatMap(\.requests) }
        let passingNear = near(p), failingNear = near(f)
        for request in f[i].requests {
            let key = "\(request.method) \(request.path)"
            // The same status anywhere near: the same answer, perhaps a step later.
            if passingNear.contains(where: { $0.method == request.method && $0.path == request.path && $0.status == request.status }) { continue }
            if let answer = p[i].requests.first(where: { $0.method == request.method && $0.path == request.path })
                ?? passingNear.first(where: { $0.method == request.method && $0.path == request.path }) {
                return "\(key) answered \(request.status) here, \(answer.status) in \(other)"
            }
            return "\(key) was asked here (answered \(request.status)); \(other) did not ask it"
        }
        for request in p[i].requests
        where !failingNear.contains(where: { $0.method == request.method && $0.path == request.path }) {
            return "\(request.method) \(request.path) was not asked here; \(other) asked it (answered \(request.status))"
        }
        return nil
    }

    private static func textDifference(_ f: String?, _ p: String?, other: String) -> String? {
        guard let f, let p, f != p else { return nil }
        let fl = f.split(separator: "\n", omittingEmptySubsequences: false)
        let pl = p.split(separator: "\n", omittingEmptySubsequences: false)
        let n = zip(fl, pl).prefix { $0 == $1 }.count
        let mine = n < fl.count ? "“\(clip(String(fl[n]), 80))”" : "nothing"
        let theirs = n < pl.count ? "“\(clip(String(pl[n]), 80))”" : "nothing"
        return "the page shows \(mine) here, \(theirs) in \(other)"
    }

    private static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
