import Foundation
import Testing

@testable import SnapshotCompare

@Suite struct RGBAImageTests {
    @Test func pngRoundTripKeepsEveryPixel() throws {
        let image = ImageComparatorTests.gradient(width: 33, height: 17)
        let data = try image.png()
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let back = try RGBAImage(png: data)
        #expect(back == image)
    }

    @Test func notAPNGIsAnError() {
        #expect(throws: ImageError.self) { try RGBAImage(png: Data("GIF89a not a png".utf8)) }
        #expect(throws: ImageError.self) { try RGBAImage(png: Data()) }
        #expect(throws: ImageError.self) { try RGBAImage(width: 0, height: 3).png() }
    }

    @Test func croppingKeepsTheBoxAndClipsToTheImage() {
        let image = ImageComparatorTests.gradient(width: 20, height: 10)
        let box = image.cropped(x: 5, y: 2, width: 4, height: 3)
        #expect(box.width == 4 && box.height == 3)
        #expect(box.pixel(x: 0, y: 0) == image.pixel(x: 5, y: 2))
        #expect(box.pixel(x: 3, y: 2) == image.pixel(x: 8, y: 4))
        let clipped = image.cropped(x: 15, y: 8, width: 10, height: 10)
        #expect(clipped.width == 5 && clipped.height == 2)
        #expect(image.cropped(x: 30, y: 0, width: 5, height: 5).width == 0)
    }

    @Test func rawPixelsMustFillTheSize() {
        #expect(RGBAImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(RGBAImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 16)) != nil)
    }
}
