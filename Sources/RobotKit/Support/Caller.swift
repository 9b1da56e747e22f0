/// Where a public call came from, as its hidden `#function`, `#filePath` and `#line` arguments
/// say: the step's robot method and line, and where XCTest reports a failure (it takes a file
/// only as a `StaticString`). Built inside the public method, from its own default arguments:
/// a literal in a default value of this type would name RobotKit's line, not the caller's.
struct Caller {
    /// As `#function` spells it; "" from the test itself.
    var function: String
    var file: StaticString
    var line: UInt

    /// The same place as a trace step records it.
    var site: CallSite { CallSite(file: "\(file)", line: line, function: function) }
}
