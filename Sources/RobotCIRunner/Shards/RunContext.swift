import RobotCICore

/// What every batch of a run shares, whichever shard runs it: one value, so a setting every
/// batch needs is added here and not to each initializer on the way to `BatchRun`.
struct RunContext: Sendable {
    let runID: String
    let layout: ReportLayout
    let clock: RunClock
    /// Where finished attempts go (journal, progress, retries).
    let router: AttemptRouter
    /// Durations from the last runs (`timings.json`): a command-driver batch's time budget.
    let history: Timings
    /// Masks secret environment values in the batch logs (the recorder masks attempts).
    let redactor: SecretRedactor
}

/// The warm resources each shard keeps across its batches; nil where the run wants none.
struct ShardResources: Sendable {
    /// Each shard's warm browser (behind its relay), nil when the driver wants none.
    var browsers: ShardBrowsers?
    /// Each shard's warm WPEWebDriver (`--browsers webkit`), nil without WebKit.
    var webKit: ShardWebKit?
    /// Each shard's network namespace (`network-isolation`), nil when off.
    var namespaces: ShardNamespaces?
    /// `network-isolation: on`: a shard that cannot have its namespace runs nothing.
    var namespaceRequired = false

    /// A test that hung or was killed may have left the shard's browser wedged mid-command, and
    /// a browser in the shard's last namespace cannot reach the new one's mock server: the
    /// shard's next batch gets new browsers.
    func replaceBrowsers(shard: Int) {
        browsers?.replace(shard: shard)
        webKit?.replace(shard: shard)
    }

    /// Ends every shard's browsers and namespace, once no batch runs.
    func shutDown() {
        browsers?.shutDown()
        webKit?.shutDown()
        namespaces?.shutDown()
    }
}
