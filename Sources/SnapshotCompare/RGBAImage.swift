import CLibPNG
import Foundation

/// An image as 8-bit RGBA pixels, rows top to bottom, read from and written to PNG with
/// libpng's simplified API (`png_image`): the PNG's own format (palette, grey, 16-bit,
/// no alpha) is converted on the way in, so two images of the same picture compare equal
/// whatever encoder wrote them.
public struct RGBAImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha.
    public var pixels: [UInt8]

    /// An image of `width`×`height` filled with one colour.
    public init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (0, 0, 0, 0)) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = fill.r
            pixels[i + 1] = fill.g
            pixels[i + 2] = fill.b
            pixels[i + 3] = fill.a
        }
    }

    /// An image from raw RGBA bytes; nil when their count is not `width * height * 4`.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes a PNG.
    public init(png data: Data) throws(ImageError) {
        var image = png_image()
        image.version = robotci_png_image_version
        // libpng reads the memory it was given until the read finishes: both calls in one borrow.
        let (decoded, message) = data.withUnsafeBytes { raw -> ([UInt8]?, String) in
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                return (nil, Self.message(of: &image))
            }
            image.format = robotci_png_format_rgba
            var buffer = [UInt8](repeating: 0, count: robotci_png_rgba_size(&image))
            let finished = buffer.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, 0, nil)
            }
            let message = Self.message(of: &image)
            png_image_free(&image)
            return (finished != 0 ? buffer : nil, message)
        }
        guard let decoded else { throw .unreadable(message) }
        pixels = decoded
        width = Int(image.width)
        height = Int(image.height)
    }

    /// Encodes the image as PNG (libpng's default compression).
    public func png() throws(ImageError) -> Data {
        guard width > 0, height > 0 else { throw .unwritable("an image of \(width)×\(height) pixels has nothing to write") }
        var image = png_image()
        image.version = robotci_png_image_version
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = robotci_png_format_rgba
        var size = 0
        // A first call with no memory measures; the second writes.
        let measured = pixels.withUnsafeBytes { raw in
            png_image_write_to_memory(&image, nil, &size, 0, raw.baseAddress, 0, nil)
        }
        guard measured != 0, size > 0 else {
            let message = Self.message(of: &image)
            png_image_free(&image)
            throw .unwritable(message)
        }
        var out = Data(count: size)
        let written = out.withUnsafeMutableBytes { memory in
            pixels.withUnsafeBytes { raw in
                png_image_write_to_memory(&image, memory.baseAddress, &size, 0, raw.baseAddress, 0, nil)
            }
        }
        let message = Self.message(of: &image)
        png_image_free(&image)
        guard written != 0 else { throw .unwritable(message) }
        return out.prefix(size)
    }

    /// The part of the image inside `x, y, width, height` (clipped to the image).
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
        let left = min(max(x, 0), self.width)
        let top = min(max(y, 0), self.height)
        let right = min(max(x + width, left), self.width)
        let bottom = min(max(y + height, top), self.height)
        var out = RGBAImage(width: right - left, height: bottom - top)
        let rowBytes = out.width * 4
        guard rowBytes > 0 else { return out }
        for row in 0..<out.height {
            let from = ((top + row) * self.width + left) * 4
            out.pixels.replaceSubrange(row * rowBytes..<(row + 1) * rowBytes, with: pixels[from..<from + rowBytes])
        }
        return out
    }

    /// The pixel at `x, y`.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// Sets the pixel at `x, y`.
    public mutating func setPixel(x: Int, y: Int, _ color: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        let i = (y * width + x) * 4
        pixels[i] = color.r
        pixels[i + 1] = color.g
        pixels[i + 2] = color.b
        pixels[i + 3] = color.a
    }

    public static func == (lhs: RGBAImage, rhs: RGBAImage) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.pixels == rhs.pixels
    }

    /// libpng's message for a failed call, as text.
    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// A PNG that could not be read or written.
public struct ImageError: Error, Equatable, CustomStringConvertible, Sendable {
    private enum Kind: Equatable, Sendable { case unreadable, unwritable }
    private let kind: Kind
    public let message: String

    /// Not a PNG libpng can read (its message says why).
    public static func unreadable(_ message: String) -> ImageError { ImageError(kind: .unreadable, message: message) }
    /// libpng could not encode the image.
    public static func unwritable(_ message: String) -> ImageError { ImageError(kind: .unwritable, message: message) }

    public var description: String {
        switch kind {
        case .unreadable: "not a readable png: \(message)"
        case .unwritable: "could not write the png: \(message)"
        }
    }
}
