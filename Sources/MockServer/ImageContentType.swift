import Foundation

/// Image content types, for ``MockResponse/image(_:contentType:status:)`` and
/// ``MockResponse/imageFile(named:in:status:)`` (SwiftMockServer's `ImageContentType`).
public enum ImageContentType: String, Sendable, CaseIterable {
    case png = "image/png"
    case jpeg = "image/jpeg"
    case gif = "image/gif"
    case webp = "image/webp"
    case svg = "image/svg+xml"
    case heic = "image/heic"
    case tiff = "image/tiff"
    case bmp = "image/bmp"
    case ico = "image/x-icon"

    /// The type for a file extension (`png`, `jpg`, `tif`, …, any case); `nil` when unknown.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "gif": self = .gif
        case "webp": self = .webp
        case "svg": self = .svg
        case "heic", "heif": self = .heic
        case "tif", "tiff": self = .tiff
        case "bmp": self = .bmp
        case "ico": self = .ico
        default: return nil
        }
    }

    /// The type whose signature starts `data`; `nil` for empty or unknown bytes. SVG is
    /// text and is not detected here (as in SwiftMockServer).
    public init?(detecting data: Data) {
        let bytes = [UInt8](data.prefix(16))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("GIF8".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts(Array("BM".utf8)) {
            self = .bmp
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if starts([0x00, 0x00, 0x01, 0x00]) {
            self = .ico
        } else if ["heic", "heix", "mif1"].contains(where: { starts(Array("ftyp\($0)".utf8), at: 4) }) {
            self = .heic
        } else {
            return nil
        }
    }
}

extension MockResponse {
    /// SwiftMockServer's fixture loader: `filename` (`users.json`, or `users` for
    /// `users.json`) from `bundle` as JSON; `nil` when the file is not there.
    public static func jsonFile(named filename: String, in bundle: Bundle, status: HTTPStatus = .ok) -> MockResponse? {
        guard let data = fileData(named: filename, defaultExtension: "json", in: bundle) else { return nil }
        return .json(data, status: status)
    }

    /// SwiftMockServer's image fixture loader: `filename` (`avatar.png`, or `avatar` for
    /// `avatar.png`) from `bundle`, typed by its extension; `nil` when the file is not there.
    public static func imageFile(named filename: String, in bundle: Bundle, status: HTTPStatus = .ok) -> MockResponse? {
        guard let data = fileData(named: filename, defaultExtension: "png", in: bundle) else { return nil }
        let ext = filename.contains(".") ? String(filename.split(separator: ".", maxSplits: 1)[1]) : "png"
        let type = ImageContentType(fileExtension: ext)?.rawValue ?? MediaType.octetStream
        return .data(data, contentType: type, status: status)
    }

    private static func fileData(named filename: String, defaultExtension: String, in bundle: Bundle) -> Data? {
        let parts = filename.split(separator: ".", maxSplits: 1).map(String.init)
        let name = parts.first ?? filename
        let ext = parts.count > 1 ? parts[1] : defaultExtension
        guard let url = bundle.url(forResource: name, withExtension: ext) else { return nil }
        return try? Data(contentsOf: url)
    }
}
