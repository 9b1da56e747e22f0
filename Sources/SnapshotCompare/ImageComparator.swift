import Foundation

/// Compares two images the way a person would: per pixel, the distance between the two
/// colours in YIQ space (luma weighted more than chroma, as the eye does), blended over white
/// where they are transparent; a pixel that differs is forgiven when it is anti-aliasing, an
/// edge pixel whose neighbourhood shows it is a blend between two flat regions in either
/// image (Vyšniauskas, "Anti-aliased pixel and intensity slope detector", 2009).
///
/// Identical rows are skipped with one memory comparison, so matching images cost little
/// more than a `memcmp`; only rows that differ are examined pixel by pixel.
public enum ImageComparator {
    /// What a comparison found.
    public struct Result: Sendable {
        /// Pixels whose colour moved beyond the tolerance and are not anti-aliasing.
        public var differing: Int
        /// Pixels that differed but were taken for anti-aliasing.
        public var antiAliased: Int
        /// Whether the two images have the same size (when not, every pixel outside the
        /// overlap differs).
        public var sameSize: Bool
        /// The expected image faded to grey, differing pixels red, anti-aliased ones yellow;
        /// nil when nothing differed at all.
        public var diff: RGBAImage?
        /// All pixels compared (the larger of the two images).
        public var total: Int

        /// Whether the images match under `tolerance`.
        public func matches(_ tolerance: SnapshotTolerance) -> Bool {
            sameSize && differing <= tolerance.pixels
        }
    }

    /// The largest squared YIQ distance (black against white).
    static let maxDelta = 35_215.0

    /// Compares `actual` against `expected` with the colour tolerance of `tolerance`; the
    /// diff image is drawn only when they do not match (`makeDiff`).
    public static func compare(expected: RGBAImage, actual: RGBAImage, tolerance: SnapshotTolerance = .standard,
                               makeDiff: Bool = true) -> Result {
        let sameSize = expected.width == actual.width && expected.height == actual.height
        let counted = scan(expected, actual, tolerance: tolerance, draw: false)
        var result = Result(differing: counted.differing, antiAliased: counted.antiAliased, sameSize: sameSize, diff: nil,
                            total: max(expected.width, actual.width) * max(expected.height, actual.height))
        if makeDiff && !result.matches(tolerance) {
            result.diff = scan(expected, actual, tolerance: tolerance, draw: true).diff
        }
        return result
    }

    /// One pass over both images: counts, and with `draw` the diff image.
    private static func scan(_ expected: RGBAImage, _ actual: RGBAImage, tolerance: SnapshotTolerance, draw: Bool)
        -> (differing: Int, antiAliased: Int, diff: RGBAImage?)
    {
        let width = max(expected.width, actual.width)
        let height = max(expected.height, actual.height)
        let sameSize = expected.width == actual.width && expected.height == actual.height
        let limit = maxDelta * tolerance.color * tolerance.color
        var diff = draw ? RGBAImage(width: width, height: height) : nil
        var differing = 0
        var antiAliased = 0
        let overlapWidth = min(expected.width, actual.width)
        let overlapHeight = min(expected.height, actual.height)
        expected.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                let one = Plane(pixels: a, width: expected.width, height: expected.height)
                let two = Plane(pixels: b, width: actual.width, height: actual.height)
                if sameSize && !draw && same(a, b, offset: 0, count: a.count) { return }
                for y in 0..<height {
                    let rowSame = sameSize && same(a, b, offset: y * width * 4, count: width * 4)
                    if rowSame && !draw { continue }
                    for x in 0..<width {
                        guard x < overlapWidth, y < overlapHeight else {
                            differing += 1
                            diff?.setPixel(x: x, y: y, Palette.differing)
                            continue
                        }
                        let i = (y * expected.width + x) * 4
                        if !rowSame && colorDelta(a, i, b, (y * actual.width + x) * 4) > limit {
                            if isAntiAliased(one, x, y, other: two) || isAntiAliased(two, x, y, other: one) {
                                antiAliased += 1
                                diff?.setPixel(x: x, y: y, Palette.antiAliased)
                            } else {
                                differing += 1
                                diff?.setPixel(x: x, y: y, Palette.differing)
                            }
                        } else if draw {
                            // Unchanged: the expected picture, faded, so the red stands out in context.
                            let grey = UInt8(255 - (255 - Int(luma(a, i).rounded())) / 10)
                            diff?.setPixel(x: x, y: y, (grey, grey, grey, 255))
                        }
                    }
                }
            }
        }
        return (differing, antiAliased, diff)
    }

    /// Whether `count` bytes from `offset` are the same in both buffers (one `memcmp`).
    @inline(__always)
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, offset: Int, count: Int) -> Bool {
        guard count > 0 else { return true }
        guard let pa = a.baseAddress, let pb = b.baseAddress, offset + count <= a.count, offset + count <= b.count else {
            return false
        }
        return memcmp(pa + offset, pb + offset, count) == 0
    }

    /// One image's pixels, for the neighbourhood checks.
    struct Plane {
        let pixels: UnsafeBufferPointer<UInt8>
        let width: Int
        let height: Int
    }

    enum Palette {
        static let differing: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (255, 0, 0, 255)
        static let antiAliased: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (255, 200, 0, 255)
    }

    /// A channel blended over white by the pixel's alpha.
    @inline(__always)
    static func blended(_ p: UnsafeBufferPointer<UInt8>, _ k: Int) -> (Double, Double, Double) {
        let alpha = Double(p[k + 3]) / 255
        return (255 + (Double(p[k]) - 255) * alpha, 255 + (Double(p[k + 1]) - 255) * alpha,
                255 + (Double(p[k + 2]) - 255) * alpha)
    }

    /// The Y (luma) of a pixel blended over white.
    @inline(__always)
    static func luma(_ p: UnsafeBufferPointer<UInt8>, _ k: Int) -> Double {
        let (r, g, b) = blended(p, k)
        return r * 0.298_895_31 + g * 0.586_622_47 + b * 0.114_482_23
    }

    /// The squared YIQ distance between pixel `i` of `a` and pixel `j` of `b`, 0…`maxDelta`.
    @inline(__always)
    static func colorDelta(_ a: UnsafeBufferPointer<UInt8>, _ i: Int, _ b: UnsafeBufferPointer<UInt8>, _ j: Int) -> Double {
        if a[i] == b[j] && a[i + 1] == b[j + 1] && a[i + 2] == b[j + 2] && a[i + 3] == b[j + 3] { return 0 }
        let (r1, g1, b1) = blended(a, i)
        let (r2, g2, b2) = blended(b, j)
        let dr = r1 - r2
        let dg = g1 - g2
        let db = b1 - b2
        let y = dr * 0.298_895_31 + dg * 0.586_622_47 + db * 0.114_482_23
        let iChroma = dr * 0.595_977_99 - dg * 0.274_176_10 - db * 0.321_801_89
        let q = dr * 0.211_470_17 - dg * 0.522_617_04 + db * 0.311_146_87
        return 0.5053 * y * y + 0.299 * iChroma * iChroma + 0.1957 * q * q
    }

    /// Whether pixel `x, y` of `image` looks like anti-aliasing: among its neighbours at most
    /// two share its brightness, it has both a darker and a brighter one, and the darkest or
    /// the brightest of them sits in a flat region (three or more equal neighbours of its
    /// own) in both images: the pixel is a blend at the edge between two solid areas.
    static func isAntiAliased(_ image: Plane, _ x: Int, _ y: Int, other: Plane) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x1 = min(x + 1, image.width - 1), y1 = min(y + 1, image.height - 1)
        let center = (y * image.width + x) * 4
        // At the image's border a pixel has fewer neighbours: one of them may share its brightness.
        var equal = x == x0 || x == x1 || y == y0 || y == y1 ? 1 : 0
        var darkest = 0.0, brightest = 0.0
        var darkX = 0, darkY = 0, brightX = 0, brightY = 0
        let base = luma(image.pixels, center)
        for ny in y0...y1 {
            for nx in x0...x1 where nx != x || ny != y {
                let change = luma(image.pixels, (ny * image.width + nx) * 4) - base
                if change == 0 {
                    equal += 1
                    if equal > 2 { return false }
                } else if change < darkest {
                    darkest = change
                    darkX = nx
                    darkY = ny
                } else if change > brightest {
                    brightest = change
                    brightX = nx
                    brightY = ny
                }
            }
        }
        guard darkest != 0, brightest != 0 else { return false }
        return (isFlat(image, darkX, darkY) && isFlat(other, darkX, darkY))
            || (isFlat(image, brightX, brightY) && isFlat(other, brightX, brightY))
    }

    /// Whether at least three neighbours of `x, y` have exactly its colour.
    static func isFlat(_ image: Plane, _ x: Int, _ y: Int) -> Bool {
        guard x < image.width, y < image.height else { return false }
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x1 = min(x + 1, image.width - 1), y1 = min(y + 1, image.height - 1)
        let center = (y * image.width + x) * 4
        var equal = x == x0 || x == x1 || y == y0 || y == y1 ? 1 : 0
        for ny in y0...y1 {
            for nx in x0...x1 where nx != x || ny != y {
                let k = (ny * image.width + nx) * 4
                if image.pixels[k] == image.pixels[center] && image.pixels[k + 1] == image.pixels[center + 1]
                    && image.pixels[k + 2] == image.pixels[center + 2] && image.pixels[k + 3] == image.pixels[center + 3]
                {
                    equal += 1
                    if equal > 2 { return true }
                }
            }
        }
        return false
    }
}
