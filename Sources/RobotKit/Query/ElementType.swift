extension WebElement {
    /// The kind of an element, as in `XCUIElement.ElementType`; see docs/RobotKit.md for the ARIA/HTML mapping.
    public enum ElementType: String, CaseIterable, Sendable {
        case any
        case other
        case button
        case staticText
        case textField
        case secureTextField
        case textView
        case scrollView
        case cell
        case image
        case `switch`
        case link
        case navigationBar
        case radioButton
        case slider
        case picker

        /// The XCUITest-style name used in descriptions and `debugDescription`: `Button`, `StaticText`, ….
        public var displayName: String {
            rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        }
    }
}
