import Foundation

/// One key press (down and up) as both engines send it: the DOM `key` and `code`, the legacy
/// `keyCode` pages still test, the text it types, and its W3C WebDriver value (a character, or
/// a code point of WebDriver's private range for keys that type nothing).
struct KeyStroke: Equatable, Sendable {
    var key: String
    var code: String
    var keyCode: Int
    /// What the press types ("" for Escape, arrows, …).
    var text: String
    var webDriverValue: String

    /// The strokes that type `text`: characters as themselves, `\n` as Return, `\t` as Tab,
    /// and WebDriver's key codes (`\u{E00C}` Escape…) as their keys, as chromedriver took them.
    static func typing(_ text: String) -> [KeyStroke] {
        text.map { character in
            if let named = named.first(where: { $0.webDriverValue == String(character) }) { return named }
            switch character {
            case "\n", "\r", "\r\n": return .enter
            case "\t": return .tab
            default: return .character(character)
            }
        }
    }

    /// A printable character's stroke (US layout names for letters, digits and space).
    static func character(_ character: Character) -> KeyStroke {
        let text = String(character)
        if character == " " { return KeyStroke(key: " ", code: "Space", keyCode: 32, text: " ", webDriverValue: " ") }
        if let ascii = character.asciiValue, character.isLetter {
            let upper = Character(Unicode.Scalar(ascii)).uppercased()
            return KeyStroke(key: text, code: "Key\(upper)", keyCode: Int(upper.utf8.first ?? 0), text: text, webDriverValue: text)
        }
        if let digit = character.wholeNumberValue, character.isASCII {
            return KeyStroke(key: text, code: "Digit\(digit)", keyCode: 48 + digit, text: text, webDriverValue: text)
        }
        return KeyStroke(key: text, code: "", keyCode: 0, text: text, webDriverValue: text)
    }

    static let enter = KeyStroke(key: "Enter", code: "Enter", keyCode: 13, text: "\r", webDriverValue: "\u{E007}")
    static let tab = KeyStroke(key: "Tab", code: "Tab", keyCode: 9, text: "", webDriverValue: "\u{E004}")
    static let backspace = KeyStroke(key: "Backspace", code: "Backspace", keyCode: 8, text: "", webDriverValue: "\u{E003}")
    static let delete = KeyStroke(key: "Delete", code: "Delete", keyCode: 46, text: "", webDriverValue: "\u{E017}")
    static let escape = KeyStroke(key: "Escape", code: "Escape", keyCode: 27, text: "", webDriverValue: "\u{E00C}")
    static let arrowLeft = KeyStroke(key: "ArrowLeft", code: "ArrowLeft", keyCode: 37, text: "", webDriverValue: "\u{E012}")
    static let arrowUp = KeyStroke(key: "ArrowUp", code: "ArrowUp", keyCode: 38, text: "", webDriverValue: "\u{E013}")
    static let arrowRight = KeyStroke(key: "ArrowRight", code: "ArrowRight", keyCode: 39, text: "", webDriverValue: "\u{E014}")
    static let arrowDown = KeyStroke(key: "ArrowDown", code: "ArrowDown", keyCode: 40, text: "", webDriverValue: "\u{E015}")
    static let home = KeyStroke(key: "Home", code: "Home", keyCode: 36, text: "", webDriverValue: "\u{E011}")
    static let end = KeyStroke(key: "End", code: "End", keyCode: 35, text: "", webDriverValue: "\u{E010}")
    static let pageUp = KeyStroke(key: "PageUp", code: "PageUp", keyCode: 33, text: "", webDriverValue: "\u{E00E}")
    static let pageDown = KeyStroke(key: "PageDown", code: "PageDown", keyCode: 34, text: "", webDriverValue: "\u{E00F}")
    static let shift = KeyStroke(key: "Shift", code: "ShiftLeft", keyCode: 16, text: "", webDriverValue: "\u{E008}")
    static let control = KeyStroke(key: "Control", code: "ControlLeft", keyCode: 17, text: "", webDriverValue: "\u{E009}")
    static let alt = KeyStroke(key: "Alt", code: "AltLeft", keyCode: 18, text: "", webDriverValue: "\u{E00A}")
    static let meta = KeyStroke(key: "Meta", code: "MetaLeft", keyCode: 91, text: "", webDriverValue: "\u{E03D}")

    /// Keys that type nothing, by their WebDriver value.
    static let named: [KeyStroke] = [
        .enter, .tab, .backspace, .delete, .escape, .arrowLeft, .arrowUp, .arrowRight, .arrowDown, .home, .end, .pageUp,
        .pageDown, .shift, .control, .alt, .meta,
        KeyStroke(key: "Enter", code: "NumpadEnter", keyCode: 13, text: "\r", webDriverValue: "\u{E006}"),
    ]
}

/// Modifier keys held during a key press (XCUITest's `KeyModifierFlags` map onto these).
struct KeyModifiers: OptionSet, Sendable, Hashable {
    let rawValue: Int
    static let alt = KeyModifiers(rawValue: 1)
    static let control = KeyModifiers(rawValue: 2)
    static let meta = KeyModifiers(rawValue: 4)
    static let shift = KeyModifiers(rawValue: 8)

    /// The keys to hold, in the order they go down.
    var strokes: [KeyStroke] {
        [(KeyModifiers.shift, KeyStroke.shift), (.control, .control), (.alt, .alt), (.meta, .meta)]
            .filter { contains($0.0) }.map(\.1)
    }
}
