/// Whether each shard runs in a network namespace of its own (`network-isolation`), so the
/// loopback servers of its tests (chromedriver, Chromium's DevTools endpoint, the mock server)
/// are out of other local users' reach.
public enum NetworkIsolation: String, CaseIterable, Sendable, Codable {
    /// Where the kernel allows it; else the host's loopback, with one warning.
    case auto
    /// Always; a run that cannot have it stops (exit 2).
    case on
    /// The host's loopback, shared with every local user.
    case off
}
