import Testing

/// Which test is running on this task or thread: Swift Testing's current test, else the
/// XCTest case `RobotKitTestObserver` saw start. `nil` outside any test.
enum TestIdentity {
    static var current: String? {
        if let test = Test.current {
            return "swift-testing:\(test.id)"
        }
        return RobotKitTestObserver.runningTest
    }
}
