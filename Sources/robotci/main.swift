import Foundation
import RobotCICommands

// Everything robotci does lives in RobotCICommands (so tests can drive it in-process).
exit(await CLI.run(Array(CommandLine.arguments.dropFirst())))
