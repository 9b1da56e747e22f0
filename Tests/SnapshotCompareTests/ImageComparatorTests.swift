import Foundation
import Testing

@testable import SnapshotCompare

/// The comparator on images drawn here, pixel by pixel, so each case knows its answer.
@Suite struct ImageComparatorTests {
    static let white: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (255, 255, 255, 255)
    static let black: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (0, 0, 0, 255)

    /// A horizontal grey gradient, 0 to 255 across the width.
    static func gradient(width: Int = 200, height: Int = 120) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let v = UInt8(x * 255 / (width - 1))
                image.setPixel(x: x, y: y, (v, v / 2, 255 - v, 255))
            }
        }
        return image
    }

    @Test func identicalImagesMatchWithNoDiffImage() {
        let image = Self.gradient()
        let result = ImageComparator.compare(expected: image, actual: image)
        #expect(result.differing == 0)
        #expect(result.antiAliased == 0)
        #expect(result.diff == nil)
        #expect(result.matches(.standard))
        #expect(result.total == 200 * 120)
    }

    @Test func aOnePixelWideLineIsCaughtOnWhiteAndOnAGradient() throws {
        for base in [RGBAImage(width: 200, height: 120, fill: Self.white), Self.gradient()] {
            var changed = base
            for y in 10..<110 { changed.setPixel(x: 77, y: y, (40, 40, 40, 255)) }
            let result = ImageComparator.compare(expected: base, actual: changed)
            #expect(result.differing == 100, "every pixel of the line differs, none is taken for anti-aliasing")
            #expect(!result.matches(.standard))
            #expect(!result.matches(SnapshotTolerance(color: 0.1, pixels: 99)))
            #expect(result.matches(SnapshotTolerance(color: 0.1, pixels: 100)))
            let diff = try #require(result.diff)
            #expect(diff.pixel(x: 77, y: 50) == (255, 0, 0, 255))
            #expect(diff.pixel(x: 20, y: 50).r == diff.pixel(x: 20, y: 50).g, "unchanged pixels are grey")
        }
    }

    @Test func aOnePixelLineOfANearbyColourIsCaughtUnlessTheToleranceAllowsIt() {
        let base = RGBAImage(width: 50, height: 50, fill: Self.white)
        var changed = base
        for y in 0..<50 { changed.setPixel(x: 25, y: y, (215, 215, 215, 255)) }
        #expect(ImageComparator.compare(expected: base, actual: changed).differing == 50)
        #expect(ImageComparator.compare(expected: base, actual: changed, tolerance: SnapshotTolerance(color: 0.3)).differing == 0)
    }

    @Test func smallColourShiftsUnderTheToleranceDoNotCount() {
        let base = Self.gradient()
        var shifted = base
        for i in stride(from: 0, to: shifted.pixels.count, by: 4) { shifted.pixels[i] = shifted.pixels[i] &+ (shifted.pixels[i] < 250 ? 3 : 0) }
        let result = ImageComparator.compare(expected: base, actual: shifted)
        #expect(result.differing == 0)
        #expect(result.matches(.standard))
        #expect(ImageComparator.compare(expected: base, actual: shifted, tolerance: SnapshotTolerance(color: 0)).differing > 0)
    }

    /// A black square on white whose right edge is a column of grey: anti-aliasing drawn
    /// with another shade by another rasterizer.
    static func square(edge: UInt8) -> RGBAImage {
        var image = RGBAImage(width: 40, height: 40, fill: white)
        for y in 10..<30 {
            for x in 10..<20 { image.setPixel(x: x, y: y, black) }
            image.setPixel(x: 20, y: y, (edge, edge, edge, 255))
        }
        return image
    }

    @Test func antiAliasedEdgesDoNotCount() {
        let result = ImageComparator.compare(expected: Self.square(edge: 160), actual: Self.square(edge: 90))
        #expect(result.differing == 0)
        #expect(result.antiAliased == 20)
        #expect(result.matches(.standard))
    }

    @Test func anEdgeThatMovesIsNotAntiAliasing() {
        var moved = Self.square(edge: 160)
        for y in 10..<30 { moved.setPixel(x: 21, y: y, Self.black) }
        let result = ImageComparator.compare(expected: Self.square(edge: 160), actual: moved)
        #expect(result.differing == 20, "a new black column beside the edge is a change")
    }

    @Test func imagesOfAnotherSizeNeverMatch() {
        let small = RGBAImage(width: 10, height: 10, fill: Self.white)
        let large = RGBAImage(width: 12, height: 10, fill: Self.white)
        let result = ImageComparator.compare(expected: small, actual: large)
        #expect(!result.sameSize)
        #expect(result.differing == 20)
        #expect(!result.matches(SnapshotTolerance(color: 1, pixels: 1_000)))
        #expect(result.diff?.width == 12)
    }

    @Test func transparencyIsComparedOverWhite() {
        let clear = RGBAImage(width: 4, height: 4, fill: (0, 0, 0, 0))
        let white = RGBAImage(width: 4, height: 4, fill: Self.white)
        #expect(ImageComparator.compare(expected: clear, actual: white).differing == 0)
        let black = RGBAImage(width: 4, height: 4, fill: Self.black)
        #expect(ImageComparator.compare(expected: clear, actual: black).differing == 16)
    }

    @Test func toleranceIsClamped() {
        #expect(SnapshotTolerance(color: 2, pixels: -1) == SnapshotTolerance(color: 1, pixels: 0))
    }
}
