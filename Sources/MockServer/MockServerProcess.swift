import Foundation

/// What MockServer keeps for the life of a process, with one owner: the servers that are
/// listening (whose journals a test's first failure saves, and whose answers a trace step
/// shows) and the origins of the pages RobotKit launched (which every server allows).
/// Servers are made by test code that has no context to pass them, so they join this.
package final class MockServerProcess: Sendable {
    package static let current = MockServerProcess()

    let servers = RunningServers()
    let launchedPages = LaunchedPages()

    private init() {}
}
