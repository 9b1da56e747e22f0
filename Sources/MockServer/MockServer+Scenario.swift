extension MockServer {
    /// Registers every route of `scenario` as a static stub, and its default response.
    @discardableResult
    public func load(_ scenario: Scenario) -> [RouteID] {
        if let defaultResponse = scenario.defaultResponse {
            setDefaultResponse(defaultResponse)
        }
        return scenario.routes.map { stub($0.method, matching: $0.pattern, response: $0.response) }
    }
}
