/// Swift Testing's tag names, as `--tag` and `robotci.yml` take them (the tags themselves
/// come from the listing's event stream: `TestListing.swiftTesting`).
enum SwiftTestingTags {
    /// `.smoke` → `smoke` (how `--tag` names it).
    static func name(_ tag: String) -> String { tag.hasPrefix(".") ? String(tag.dropFirst()) : tag }
}
