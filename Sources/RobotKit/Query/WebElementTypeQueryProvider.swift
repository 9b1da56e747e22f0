/// Anything that can be queried for descendants: `WebApp`, `WebElement`, `WebElementQuery`.
/// The typed properties (`buttons`, `staticTexts`, …) mirror `XCUIElementTypeQueryProvider`.
public protocol WebElementTypeQueryProvider {
    /// Every descendant of `type` (`.any` for all).
    func descendants(matching type: WebElement.ElementType) -> WebElementQuery
    /// Direct children of `type` in the accessibility tree (anonymous wrappers are skipped).
    func children(matching type: WebElement.ElementType) -> WebElementQuery
}

extension WebElementTypeQueryProvider {
    /// `<button>`, `input[type=button|submit|reset|image|file|color]`, `<summary>`, role `button`/`menuitem`/`tab`.
    public var buttons: WebElementQuery { descendants(matching: .button) }
    /// Text: headings, `<p>`, `<label>`, `<span>`, …, and any element holding only text.
    public var staticTexts: WebElementQuery { descendants(matching: .staticText) }
    /// Text-like `<input>`s, role `textbox`/`searchbox`/`combobox`/`spinbutton`.
    public var textFields: WebElementQuery { descendants(matching: .textField) }
    /// `input[type=password]`.
    public var secureTextFields: WebElementQuery { descendants(matching: .secureTextField) }
    /// `<textarea>`, `contenteditable` roots.
    public var textViews: WebElementQuery { descendants(matching: .textView) }
    /// Elements with `overflow: auto|scroll`.
    public var scrollViews: WebElementQuery { descendants(matching: .scrollView) }
    /// Containers: `<div>`, `<section>`, `<main>`, `<form>`, `<ul>`, … and container roles.
    public var otherElements: WebElementQuery { descendants(matching: .other) }
    /// `<li>`, `<tr>`, role `row`/`listitem`/`option`/`treeitem`.
    public var cells: WebElementQuery { descendants(matching: .cell) }
    /// `<img>`, `<svg>`, `<canvas>`, `<picture>`, `<video>`, role `img`.
    public var images: WebElementQuery { descendants(matching: .image) }
    /// `input[type=checkbox]`, role `switch`/`checkbox`.
    public var switches: WebElementQuery { descendants(matching: .switch) }
    /// `<a href>`, role `link`.
    public var links: WebElementQuery { descendants(matching: .link) }
    /// `<nav>`, a page-level `<header>`, role `navigation`/`banner`/`toolbar`.
    public var navigationBars: WebElementQuery { descendants(matching: .navigationBar) }
    /// `input[type=radio]`, role `radio`.
    public var radioButtons: WebElementQuery { descendants(matching: .radioButton) }
    /// `input[type=range]`, role `slider`.
    public var sliders: WebElementQuery { descendants(matching: .slider) }
    /// `<select>`, role `listbox`.
    public var pickers: WebElementQuery { descendants(matching: .picker) }
}
