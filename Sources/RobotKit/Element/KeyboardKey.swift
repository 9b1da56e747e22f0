import Foundation

/// A key that types nothing, or a character, by the names XCUITest gives them
/// (`XCUIKeyboardKey.escape`, `.enter`, `.tab`, arrows…): `typeKey(_:modifierFlags:)` presses it.
/// The raw values are XCUITest's own (`"\u{1b}"` for Escape, the `NSEvent` function-key code
/// points for arrows), so a key written as a string on iOS means the same key here.
public struct KeyboardKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let escape = KeyboardKey(rawValue: "\u{1b}")
    public static let `return` = KeyboardKey(rawValue: "\r")
    public static let enter = KeyboardKey(rawValue: "\u{03}")
    public static let tab = KeyboardKey(rawValue: "\t")
    public static let space = KeyboardKey(rawValue: " ")
    public static let delete = KeyboardKey(rawValue: "\u{7f}")
    public static let forwardDelete = KeyboardKey(rawValue: "\u{F728}")
    public static let upArrow = KeyboardKey(rawValue: "\u{F700}")
    public static let downArrow = KeyboardKey(rawValue: "\u{F701}")
    public static let leftArrow = KeyboardKey(rawValue: "\u{F702}")
    public static let rightArrow = KeyboardKey(rawValue: "\u{F703}")
    public static let home = KeyboardKey(rawValue: "\u{F729}")
    public static let end = KeyboardKey(rawValue: "\u{F72B}")
    public static let pageUp = KeyboardKey(rawValue: "\u{F72C}")
    public static let pageDown = KeyboardKey(rawValue: "\u{F72D}")

    /// The stroke a key's raw value stands for: XCUITest's codes, WebDriver's (`\u{E00C}`),
    /// or a character that types itself.
    static func stroke(for raw: String) -> KeyStroke {
        switch raw {
        case KeyboardKey.escape.rawValue: return .escape
        case KeyboardKey.return.rawValue, KeyboardKey.enter.rawValue, "\n": return .enter
        case KeyboardKey.tab.rawValue: return .tab
        case KeyboardKey.delete.rawValue, "\u{8}": return .backspace
        case KeyboardKey.forwardDelete.rawValue: return .delete
        case KeyboardKey.upArrow.rawValue: return .arrowUp
        case KeyboardKey.downArrow.rawValue: return .arrowDown
        case KeyboardKey.leftArrow.rawValue: return .arrowLeft
        case KeyboardKey.rightArrow.rawValue: return .arrowRight
        case KeyboardKey.home.rawValue: return .home
        case KeyboardKey.end.rawValue: return .end
        case KeyboardKey.pageUp.rawValue: return .pageUp
        case KeyboardKey.pageDown.rawValue: return .pageDown
        default: return KeyStroke.typing(raw).first ?? .character(" ")
        }
    }

    /// How a trace names the key.
    var name: String { Self.stroke(for: rawValue).key }
}

/// Modifier keys held while a key is pressed, as XCUITest names them (`XCUIElement.KeyModifierFlags`).
/// `.command` is the Meta key; `.option` is Alt.
public struct KeyModifierFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let capsLock = KeyModifierFlags(rawValue: 1 << 0)
    public static let shift = KeyModifierFlags(rawValue: 1 << 1)
    public static let control = KeyModifierFlags(rawValue: 1 << 2)
    public static let option = KeyModifierFlags(rawValue: 1 << 3)
    public static let command = KeyModifierFlags(rawValue: 1 << 4)
    public static let function = KeyModifierFlags(rawValue: 1 << 5)

    /// The engine's modifiers (Caps Lock and Fn have no DOM modifier of their own and are ignored).
    var engineModifiers: KeyModifiers {
        var held: KeyModifiers = []
        if contains(.shift) { held.insert(.shift) }
        if contains(.control) { held.insert(.control) }
        if contains(.option) { held.insert(.alt) }
        if contains(.command) { held.insert(.meta) }
        return held
    }

    /// `⇧⌃⌥⌘` as a trace shows them.
    var symbols: String {
        [(KeyModifierFlags.shift, "⇧"), (.control, "⌃"), (.option, "⌥"), (.command, "⌘")].filter { contains($0.0) }.map(\.1).joined()
    }
}

extension WebElement {
    /// XCUITest's name for the modifier flags.
    public typealias KeyModifierFlags = RobotKit.KeyModifierFlags

    /// Presses `key` with `modifierFlags` held, on this element (focused first, waiting up to
    /// `implicitWaitTimeout` for it). A trace step, like every action.
    public func typeKey(
        _ key: KeyboardKey, modifierFlags: KeyModifierFlags, function: String = #function,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        typeKey(key.rawValue, modifierFlags: modifierFlags, function: function, file: file, line: line)
    }

    /// Presses the key `key` names (a character, or an `XCUIKeyboardKey` raw value).
    public func typeKey(
        _ key: String, modifierFlags: KeyModifierFlags, function: String = #function, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let stroke = KeyboardKey.stroke(for: key)
        app.operation("press key \(modifierFlags.symbols)\(stroke.key) on", target, defaultValue: (),
                      at: Caller(function: function, file: file, line: line)) { engine throws(RobotKitError) in
            if !chain.isEmpty { try engine.focus(chain, timeout: app.implicitWaitTimeout) }
            try engine.driver.keys([stroke], modifiers: modifierFlags.engineModifiers)
        }
    }
}

extension WebApp {
    /// Presses `key` with `modifierFlags` held, on whatever has the focus (XCUIApplication's `typeKey`).
    public func typeKey(
        _ key: KeyboardKey, modifierFlags: KeyModifierFlags, function: String = #function,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        root.typeKey(key.rawValue, modifierFlags: modifierFlags, function: function, file: file, line: line)
    }

    /// Presses the key `key` names on whatever has the focus.
    public func typeKey(
        _ key: String, modifierFlags: KeyModifierFlags, function: String = #function, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        root.typeKey(key, modifierFlags: modifierFlags, function: function, file: file, line: line)
    }
}
