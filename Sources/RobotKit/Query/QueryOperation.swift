/// What the page script does with a query's first match: a case of `perform` in
/// `robotkit-page/query.js`, whose reply `QueryReply` decodes.
enum QueryOperation: Equatable, Sendable {
    /// How many elements match, and whether one exists (every reply says that much).
    case count
    /// The match's accessibility attributes (`QueryReply.info`).
    case probe
    /// Focuses the match, its caret at the end of its text, for typing.
    case focus
    /// Where a pointer would tap the match (scrolled into view), or what covers it.
    case point
    /// Focuses the match and selects its text, so Backspace clears it.
    case prepareClear
    /// Scrolls the match's scroll container (or the page) by most of a screen.
    case scroll(ScrollDirection)
    /// The match's subtree of the accessibility tree, as indented text.
    case tree
    /// Scrolls the match into view (the nearest edge, at once) and reads its attributes, its
    /// frame among them: the box a snapshot of the element crops.
    case reveal

    /// Which way `scroll` moves, named like the finger's swipe (`up` shows what is below).
    enum ScrollDirection: String, Sendable, CaseIterable {
        case up, down, left, right
    }

    /// The names `perform` switches on, one per case (a test checks query.js has each).
    enum Name: String, Sendable, CaseIterable {
        case count, probe, focus, point, prepareClear, scroll, tree, reveal
    }

    var name: Name {
        switch self {
        case .count: .count
        case .probe: .probe
        case .focus: .focus
        case .point: .point
        case .prepareClear: .prepareClear
        case .scroll: .scroll
        case .tree: .tree
        case .reveal: .reveal
        }
    }

    /// The script's third argument (`null` when the operation takes none).
    var argument: String? {
        if case .scroll(let direction) = self { return direction.rawValue }
        return nil
    }
}
