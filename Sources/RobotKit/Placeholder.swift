enum RobotKitPlaceholder {}
