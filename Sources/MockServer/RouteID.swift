import Foundation

/// Identifies a registered route, for ``MockServer/removeRoute(id:)``.
public struct RouteID: Hashable, Sendable, CustomStringConvertible {
    private let value: UUID

    init() {
        value = UUID()
    }

    /// The identifier as text.
    public var description: String { value.uuidString }
}
