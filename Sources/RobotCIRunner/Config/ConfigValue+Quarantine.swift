import RobotCICore

extension ConfigValue {
    /// `quarantine:`: regexes, entries `{test, owner, reason, expires}` (and `browser`), or both
    /// in one list (a regex there is read as `{match: REGEX}`).
    func quarantine() throws -> (patterns: [String], entries: [QuarantineEntry]) {
        switch value {
        case .scalar(let s): return ([s], [])
        case .list(let l): return (l, [])
        case .mappings(let items):
            var patterns: [String] = [], entries: [QuarantineEntry] = []
            for (i, fields) in items.enumerated() {
                if fields.count == 1, let match = fields["match"] {
                    patterns.append(match)
                    continue
                }
                do { entries.append(try QuarantineEntry(number: i + 1, fields: fields, source: source)) } catch let e as ConfigError {
                    throw fail(e.message)
                }
            }
            return (patterns, entries)
        }
    }
}
