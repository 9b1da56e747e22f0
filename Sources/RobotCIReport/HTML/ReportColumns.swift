/// The columns of the report data's positional rows (compact arrays instead of objects:
/// 10,000 tests must stay under 5 MB). One table: `ReportData` writes each row through
/// `ReportRow` in this order, the data carries the names as `columns`, and
/// `web-report/report.js` finds every index by name there, failing on a name it lacks.
///
/// A row may end early: the columns it lacks are empty (an attempt that passed quietly
/// stops after `machine`, an artifact not inlined after `linkable`).
protocol ReportColumn: CaseIterable, RawRepresentable<Int> {
    /// The key of this table in the data's `columns` object.
    static var table: String { get }
}

extension ReportColumn {
    /// The column's name in the data: the case's name.
    var columnName: String { String(describing: self) }
}

enum ReportColumns {
    /// A test: `flags` bit 0 quarantined, bit 1 `id` follows (not `class/name`), bit 2 `reason`
    /// follows (with `id` null when the id is plain); `browser` (`--browsers`) follows for a
    /// run on another engine than the default (with `id` and `reason` null when absent).
    enum Test: Int, ReportColumn {
        case classIndex, name, outcome, flags, attempts, id, reason, browser
        static let table = "test"
    }

    /// One attempt of a test; `outcome` indexes the data's `attemptOutcomes`.
    enum Attempt: Int, ReportColumn {
        case outcome, durationMs, startMs, shard, batch, machine, failures, failuresLeftOut, output, outputCut, artifacts
        static let table = "attempt"
    }

    /// One failure of an attempt; `file` indexes `files` (-1: none), `bytesCut` of the message.
    enum Failure: Int, ReportColumn {
        case file, line, message, bytesCut
        static let table = "failure"
    }

    /// One artifact of an attempt: indexes into `kinds`, `dirs`, `names`; `inline` the file's
    /// content when small, `cut` the items or bytes left out of it.
    enum Artifact: Int, ReportColumn {
        case kind, dir, name, linkable, inline, cut
        static let table = "artifact"
    }

    /// One batch (one worker process); `termination` is the batch's `BatchEnd` as a person
    /// reads it, `clean` whether the process ran to its end and exited 0.
    enum Batch: Int, ReportColumn {
        case id, shard, machine, startMs, endMs, testCount, termination, clean
        static let table = "batch"
    }

    /// A folder of the path trie: `parent` indexes `dirs` (-1: top).
    enum Dir: Int, ReportColumn {
        case parent, name
        static let table = "dir"
    }

    /// A step of the timeline's concurrency strip.
    enum Concurrency: Int, ReportColumn {
        case ms, running
        static let table = "concurrency"
    }

    /// A run of `history.runs`, with its per-outcome counts.
    enum HistoryRun: Int, ReportColumn {
        case id, startedMs, commit, passed, failing, flaky
        static let table = "historyRun"
    }

    /// A test of `history.tests`, packed (`HistoryPacking`): its letters, its durations.
    enum HistoryTest: Int, ReportColumn {
        /// `Outcome.letter` per run, `-` when the test did not run, run-length coded; the
        /// data's `letters` maps them.
        case letters
        /// Milliseconds per run, as changes from the previous run's, `_` when not run.
        case durations
        static let table = "historyTest"
    }

    /// Every table, for the data's `columns` header.
    static let all: [(table: String, names: [String])] = [
        header(Test.self), header(Attempt.self), header(Failure.self), header(Artifact.self), header(Batch.self),
        header(Dir.self), header(Concurrency.self), header(HistoryRun.self), header(HistoryTest.self),
    ]

    private static func header<C: ReportColumn>(_: C.Type) -> (table: String, names: [String]) {
        (C.table, C.allCases.map(\.columnName))
    }
}

/// Writes one positional row column by column; the columns must come in the table's order,
/// which debug builds (and so every test) check.
struct ReportRow<Column: ReportColumn> {
    private var next = 0

    /// Starts `column`'s cell: the value written next is its value.
    mutating func column(_ column: Column, _ w: inout SafeJSONWriter) {
        assert(column.rawValue == next, "report data: column \(column.columnName) written at position \(next) of \(Column.table)")
        w.raw(next == 0 ? "[" : ",")
        next += 1
    }

    func end(_ w: inout SafeJSONWriter) {
        w.raw(next == 0 ? "[]" : "]")
    }
}
