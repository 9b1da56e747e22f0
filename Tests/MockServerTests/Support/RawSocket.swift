#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A blocking TCP client over plain sockets, so tests see exactly the bytes on the wire
/// (URLSession is not used in this project). Create and use it through `Offload.run`,
/// never directly on Swift concurrency's few cooperative threads.
final class RawSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host:port` (IPv4 or IPv6 literal); reads give up after `timeout` seconds.
    init(host: String = "127.0.0.1", port: UInt16, timeout: Int = 5) throws {
        let isIPv6 = host.contains(":")
        fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(port.bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(port.bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        // No close() here: a class whose init throws after setting every property still
        // runs deinit, and closing twice could close a descriptor the server reused.
        guard result == 0 else {
            throw Failure(description: "connect to \(host):\(port) failed: errno \(errno)")
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Closes the connection now rather than at deinit.
    func closeNow() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads one HTTP/1.1 response (Content-Length framed), skipping `100 Continue`.
    func readResponse(headOnly: Bool = false) throws -> RawResponse {
        while true {
            let headerEnd = try readUntil([13, 10, 13, 10])
            let headText = String(decoding: buffer[..<headerEnd], as: UTF8.self)
            buffer.removeFirst(headerEnd + 4)
            var lines = headText.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                throw Failure(description: "bad status line in \(headText)")
            }
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            if status == 100 { continue }
            let length = headOnly ? 0 : headers["content-length"].flatMap { Int($0) } ?? 0
            while buffer.count < length {
                guard try fill() else { throw Failure(description: "connection closed inside a body") }
            }
            let body = Data(buffer[..<length])
            buffer.removeFirst(length)
            return RawResponse(status: status, headers: headers, body: body)
        }
    }

    /// Whether the peer closes the connection (end-of-file or reset) before the read timeout.
    func isClosedByPeer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if let range = find(marker) { return range }
            guard try fill() else { throw Failure(description: "connection closed before a full response head") }
        }
    }

    private func find(_ marker: [UInt8]) -> Int? {
        guard buffer.count >= marker.count else { return nil }
        for start in 0...(buffer.count - marker.count) where Array(buffer[start..<start + marker.count]) == marker {
            return start
        }
        return nil
    }

    /// Reads more bytes; false at end-of-file.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw Failure(description: "recv failed: errno \(errno)") }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}

/// A response as read off the socket; header names are lower-cased.
struct RawResponse: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
}
