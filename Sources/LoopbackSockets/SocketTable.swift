import Foundation
import ProcessToolkit

/// The kernel's table of TCP sockets (Linux `/proc/net/tcp` and `tcp6`): which addresses
/// listen on a port, read from the kernel rather than from a server's own word.
public enum SocketTable {
    /// Local addresses of sockets listening on `port`: `127.0.0.1`, `0.0.0.0`, `::1`, `::`, or
    /// another address as dotted IPv4 / 32 hex digits. Empty where there is no procfs.
    public static func listeners(port: Int) -> [String] {
        listeners(port: port, tables: "/proc/net")
    }

    /// The same, in the network namespace process `pid` is in (`/proc/PID/net`): how a server
    /// started inside a namespace is seen listening from outside it, where nothing can connect.
    public static func listeners(port: Int, inNamespaceOf pid: Int32) -> [String] {
        listeners(port: port, tables: "/proc/\(pid)/net")
    }

    private static func listeners(port: Int, tables: String) -> [String] {
        var found: [String] = []
        for (file, v6) in [("\(tables)/tcp", false), ("\(tables)/tcp6", true)] {
            // The table of a busy machine runs to hundreds of kilobytes, and Foundation's file
            // readers stop after one page of a procfs file (see `ProcessTable.contents(of:)`).
            guard let data = ProcessTable.contents(of: file) else { continue }
            found += listeners(port: port, table: String(decoding: data, as: UTF8.self), v6: v6)
        }
        return found
    }

    /// The rows of one table listening on `port` (the table's text, header first).
    static func listeners(port: Int, table: String, v6: Bool) -> [String] {
        var found: [String] = []
        for row in table.split(separator: "\n").dropFirst() {
            let columns = row.split(separator: " ")
            // columns[1] is the local "ADDRESS:PORT" in hex, columns[3] the state (0A: LISTEN).
            guard columns.count > 3, columns[3] == "0A" else { continue }
            let local = columns[1].split(separator: ":")
            guard local.count == 2, Int(local[1], radix: 16) == port, let address = address(local[0], v6: v6) else { continue }
            found.append(address)
        }
        return found
    }

    /// The table's hex address (32-bit words in host byte order) as text; nil if malformed.
    static func address(_ hex: Substring, v6: Bool) -> String? {
        guard hex.count == (v6 ? 32 : 8) else { return nil }
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 8)
            guard let word = UInt32(hex[i..<j], radix: 16) else { return nil }
            let host = word.littleEndian  // the address's first byte lowest
            bytes += [UInt8(host & 0xff), UInt8((host >> 8) & 0xff), UInt8((host >> 16) & 0xff), UInt8(host >> 24)]
            i = j
        }
        if !v6 { return bytes.map(String.init).joined(separator: ".") }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return "::1" }
        if bytes == [UInt8](repeating: 0, count: 16) { return "::" }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
