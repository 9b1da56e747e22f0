/// An invariant of a fuzz target. A violation traps, which libFuzzer reports as a crash
/// and saves the input that caused it (`crash-<sha1>`).
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                    file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError("invariant violated: \(message())", file: file, line: line) }
}

/// The fuzzer's bytes as a buffer (libFuzzer passes a null pointer for the empty input).
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: size == 0 ? nil : data, count: size)
}

/// True when `s` holds a line feed anywhere (also inside a "\r\n" grapheme).
public func hasNewline(_ s: some StringProtocol) -> Bool { s.utf8.contains(10) }
