extension MockServer {
    /// Registers every route of `scenario` as a static stub, its folders, and its default response.
    @discardableResult
    public func load(_ scenario: Scenario) -> [RouteID] {
        if let defaultResponse = scenario.defaultResponse {
            setDefaultResponse(defaultResponse)
        }
        // A folder that vanished since the scenario was read answers 404s saying so.
        let folders = scenario.folders.map { serve(StaticFolder(folder: $0.url, prefix: $0.prefix, spaFallback: $0.spaFallback)) }
        return folders + scenario.routes.map { stub($0.method, matching: $0.pattern, response: $0.response) }
    }
}
