/// Identifies a registered route, for ``MockServer/removeRoute(id:)``: a UUID string, as
/// SwiftMockServer's route ids are.
public typealias RouteID = String
