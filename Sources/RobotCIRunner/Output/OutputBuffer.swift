/// A test's slice of output, bounded: the first `headLimit` bytes and the last
/// `tailLimit` bytes are kept (the start says what the test did, the end holds the
/// failure or the backtrace); the full text stays in the batch log.
struct OutputBuffer {
    let headLimit: Int
    let tailLimit: Int
    private var head = ""
    private var tail: [Substring] = []
    private var tailStart = 0
    private var tailBytes = 0
    private(set) var omittedBytes = 0
    private var headFull = false

    init(headLimit: Int = 16 * 1024, tailLimit: Int = 48 * 1024) {
        self.headLimit = headLimit
        self.tailLimit = tailLimit
    }

    var isTruncated: Bool { omittedBytes > 0 }

    mutating func append(_ line: Substring) {
        let size = line.utf8.count + 1
        if !headFull {
            if head.utf8.count + size <= headLimit {
                head += line
                head += "\n"
                return
            }
            headFull = true
        }
        tail.append(line)
        tailBytes += size
        while tailBytes > tailLimit && tailStart < tail.count - 1 {
            let dropped = tail[tailStart].utf8.count + 1
            tailBytes -= dropped
            omittedBytes += dropped
            tailStart += 1
        }
        if tailStart > 1024 && tailStart * 2 > tail.count {
            tail.removeFirst(tailStart)
            tailStart = 0
        }
    }

    var text: String {
        var out = head
        if omittedBytes > 0 { out += "… \(omittedBytes) bytes omitted (full output in the batch log) …\n" }
        for line in tail[tailStart...] {
            out += line
            out += "\n"
        }
        return out
    }
}
