/// How different two snapshots may be and still match: how far a pixel's colour may move
/// before it counts as different, and how many different pixels are allowed. Pixels that
/// differ only by anti-aliasing (an edge drawn a shade lighter or darker) never count.
public struct SnapshotTolerance: Equatable, Sendable, Codable {
    /// 0…1: the colour distance (YIQ, perceptual) a pixel may move, as a share of the
    /// largest distance there is (black to white). 0 takes any change; 0.1 (the default)
    /// ignores changes the eye does not see, such as one step of a gradient.
    public var color: Double
    /// How many pixels may differ beyond `color` (0: none).
    public var pixels: Int

    /// The default: a pixel may move by 0.1 of the largest colour distance, and none may differ more.
    public static let standard = SnapshotTolerance(color: 0.1, pixels: 0)

    public init(color: Double = 0.1, pixels: Int = 0) {
        self.color = min(max(color, 0), 1)
        self.pixels = max(pixels, 0)
    }
}
