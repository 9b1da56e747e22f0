import Foundation

/// Content types the helpers set, and the guesses made from magic bytes and file names.
enum MediaType {
    static let json = "application/json; charset=utf-8"
    static let text = "text/plain; charset=utf-8"
    static let html = "text/html; charset=utf-8"
    static let octetStream = "application/octet-stream"
    static let javascript = "text/javascript; charset=utf-8"

    /// The image type whose signature starts `data`, or `application/octet-stream`.
    static func sniffImage(_ data: Data) -> String {
        let bytes = [UInt8](data.prefix(16))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count
                && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF8".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("BM".utf8)) { return "image/bmp" }
        if starts([0x00, 0x00, 0x01, 0x00]) { return "image/x-icon" }
        if starts(Array("ftypavif".utf8), at: 4) { return "image/avif" }
        if isSVG(data) { return "image/svg+xml" }
        return octetStream
    }

    /// The content type for a fixture file: by magic bytes for images, else by extension.
    static func forFile(named name: String, contents: Data) -> String {
        let sniffed = sniffImage(contents)
        if sniffed != octetStream { return sniffed }
        return forExtension(of: name)
    }

    /// The content type for a file name by its extension alone (what a served folder uses).
    static func forExtension(of name: String) -> String {
        byExtension[(name as NSString).pathExtension.lowercased()] ?? octetStream
    }

    private static let byExtension: [String: String] = [
        "html": html, "htm": html, "txt": text, "json": json, "map": json, "webmanifest": "application/manifest+json",
        "js": javascript, "mjs": javascript, "cjs": javascript, "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon", "bmp": "image/bmp",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "wasm": "application/wasm", "xml": "application/xml", "pdf": "application/pdf",
        "mp4": "video/mp4", "webm": "video/webm", "mp3": "audio/mpeg", "wav": "audio/wav",
    ]

    private static func isSVG(_ data: Data) -> Bool {
        guard let head = String(data: data.prefix(512), encoding: .utf8) else { return false }
        let trimmed = head.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.hasPrefix("<svg") || (trimmed.hasPrefix("<?xml") && trimmed.contains("<svg"))
    }
}
