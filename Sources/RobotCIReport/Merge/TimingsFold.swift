import Foundation
import RobotCICore

/// Every input's `timings.json` in one, a later input's duration winning, without a String
/// and a dictionary entry per id and input: ids are numbered by their bytes once
/// (`IDNumbers`) and an input only overwrites its ids' slots. 1,000 partitions that each
/// carry the whole suite's timings are ten million entries of ten thousand ids; as
/// dictionaries they took half of a merge's time.
struct TimingsFold {
    private var ids = IDNumbers()
    /// By id number; nil until an input has one.
    private var seconds: [Double?] = []
    private var entries: [(id: Int, seconds: Double)] = []
    /// The last file added. The same bytes again change nothing: every slot they set already
    /// holds their value. With 1,000 partitions that carry one timings.json, 999 are that.
    private var last: Data?
    /// Other browser engines' durations (`Timings.browsers`), a later input's winning: few
    /// files have them, so a dictionary will do.
    private var browsers: [String: [String: Double]] = [:]

    /// Adds one input's `timings.json` (robotci's shape, or anything `JSONDecoder` reads as
    /// timings); when it is neither, adds nothing and throws the decoder's error naming `path`.
    mutating func add(_ data: Data, path: String) throws {
        if data == last { return }
        entries.removeAll(keepingCapacity: true)
        let scanned = data.withUnsafeBytes { bytes in
            TimingsScanner.scan(bytes) { id, s in entries.append((ids.number(of: UnsafeRawBufferPointer(id)), s)) } != nil
        }
        if !scanned {
            let decoded = try ReportReader.decodeTimings(data, path: path)
            entries = decoded.tests.map { id, s in
                var id = id
                return (id.withUTF8 { ids.number(of: UnsafeRawBufferPointer($0)) }, s)
            }
            browsers.merge(decoded.browsers ?? [:]) { old, new in old.merging(new) { _, later in later } }
        }
        if seconds.count < ids.count { seconds += Array(repeating: nil, count: ids.count - seconds.count) }
        for e in entries { seconds[e.id] = e.seconds }
        last = data
    }

    /// The folded durations of every id but `skipping`'s.
    func timings(skipping: Set<String>) -> Timings {
        var out = Timings()
        for (number, value) in seconds.enumerated() {
            guard let value else { continue }
            let id = ids.string(number)
            if !skipping.contains(id) { out.tests[id] = value }
        }
        out.browsers = browsers.isEmpty ? nil : browsers
        return out
    }
}

/// Numbers byte strings (test ids) in the order first seen, found again by their bytes: an
/// open-addressing table over one byte buffer, so looking up an id read from a file makes
/// no String.
struct IDNumbers {
    private var bytes: [UInt8] = []
    /// Id n's bytes end here (and start where n - 1's end).
    private var ends: [Int] = []
    private var hashes: [UInt64] = []
    /// Id number + 1 per slot (0: empty); a power of two, at most half full.
    private var slots = [Int](repeating: 0, count: 1024)

    var count: Int { ends.count }

    /// The number of `id`, given a new one if it was not seen before.
    mutating func number(of id: UnsafeRawBufferPointer) -> Int {
        let hash = Self.hash(id)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 {
            let n = slots[slot] - 1
            if hashes[n] == hash && same(n, id) { return n }
            slot = (slot + 1) & (slots.count - 1)
        }
        bytes.append(contentsOf: id)
        ends.append(bytes.count)
        hashes.append(hash)
        slots[slot] = ends.count
        if ends.count * 2 > slots.count { grow() }
        return ends.count - 1
    }

    /// Id `n` as text.
    func string(_ n: Int) -> String {
        String(decoding: bytes[start(of: n)..<ends[n]], as: UTF8.self)
    }

    private func start(of n: Int) -> Int { n == 0 ? 0 : ends[n - 1] }

    private func same(_ n: Int, _ id: UnsafeRawBufferPointer) -> Bool {
        let start = start(of: n)
        guard ends[n] - start == id.count else { return false }
        guard let other = id.baseAddress, id.count > 0 else { return true }
        return bytes.withUnsafeBytes { memcmp($0.baseAddress! + start, other, id.count) == 0 }
    }

    /// Eight bytes at a time, mixed (the slot is its low bits): a byte-at-a-time hash was
    /// most of the fold's time, ten million ids of ~45 bytes.
    private static func hash(_ id: UnsafeRawBufferPointer) -> UInt64 {
        func mix(_ h: UInt64) -> UInt64 {
            var h = h
            h ^= h >> 33
            h = h &* 0xff51_afd7_ed55_8ccd
            h ^= h >> 33
            return h
        }
        var h: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(id.count)
        var i = 0
        while i + 8 <= id.count {
            h = mix(h ^ id.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &+ 0x9e37_79b9_7f4a_7c15
            i += 8
        }
        var tail: UInt64 = 0
        for (k, b) in id[i...].enumerated() { tail |= UInt64(b) << (8 * UInt64(k)) }
        return mix(mix(h ^ tail))
    }

    private mutating func grow() {
        slots = [Int](repeating: 0, count: slots.count * 2)
        for n in 0..<ends.count {
            var slot = Int(truncatingIfNeeded: hashes[n]) & (slots.count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = n + 1
        }
    }
}
