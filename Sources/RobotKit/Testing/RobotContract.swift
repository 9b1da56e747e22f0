/// What every screen robot has: the app it drives.
///
/// ```swift
/// struct HomeRobot: RobotContract {
///     let app: WebApp
/// }
/// ```
public protocol RobotContract {
    var app: WebApp { get }
}
