import Foundation
@testable import RobotKit
import Testing

/// The audit's rules at their edges, run under node without a browser: audit.js's `rules` are
/// pure functions of what the page measured (colours, font size and weight, boxes, roles), so
/// each threshold is pinned here exactly; AccessibilityAuditTests check the DOM side in Chromium.
@Suite(.enabled(if: QueryScriptTests.node != nil, "node is not installed"))
struct AuditRuleTests {
    /// Evaluates `expression` with `rules` (audit.js's) in scope and returns its JSON.
    static func evaluate(_ expression: String) throws -> String {
        let node = try #require(QueryScriptTests.node)
        let program = """
            const rules = new Function(require('fs').readFileSync(process.argv[1], 'utf8') + '\\nreturn RKAudit;')().rules;
            // The grey whose contrast with white is exactly `ratio` (WCAG's luminance, inverted).
            const grey = (ratio) => {
              const l = 1.05 / ratio - 0.05;
              const v = l <= 0.0031308 ? l * 12.92 : 1.055 * Math.pow(l, 1 / 2.4) - 0.055;
              return 'color(srgb ' + v + ' ' + v + ' ' + v + ')';
            };
            const text = (color, size, weight, more) => Object.assign({ color, layers: ['rgb(255, 255, 255)'],
              fontSize: size, fontWeight: weight }, more || {});
            const verdict = (f) => rules.contrast(f) === null ? 'passes' : 'fails';
            console.log(JSON.stringify(\(expression)));
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["-e", program, QueryScriptTests.folder.appendingPathComponent("audit.js").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func contrastOfExactlyFourAndAHalfToOnePasses() throws {
        #expect(try Self.evaluate("[verdict(text(grey(4.5), 16, 400)), verdict(text(grey(4.49), 16, 400))]")
            == #"["passes","fails"]"#)
        // The greys either side of it on the web's 256 levels: #767676 is 4.54:1, #777777 4.48:1.
        #expect(try Self.evaluate("[verdict(text('rgb(118, 118, 118)', 16, 400)), verdict(text('rgb(119, 119, 119)', 16, 400))]")
            == #"["passes","fails"]"#)
    }

    @Test func largeTextNeedsThreeToOne() throws {
        #expect(try Self.evaluate("[verdict(text(grey(3), 24, 400)), verdict(text(grey(2.99), 24, 400))]") == #"["passes","fails"]"#)
        // 18.66 px (14 pt) is large only when bold; just under 24 px, not bold, is normal text.
        #expect(try Self.evaluate("[verdict(text(grey(3), 18.66, 700)), verdict(text(grey(3), 18.66, 400))]") == #"["passes","fails"]"#)
        #expect(try Self.evaluate("[verdict(text(grey(3), 23.9, 400)), verdict(text(grey(3), 18.5, 700))]") == #"["fails","fails"]"#)
        #expect(try Self.evaluate("[rules.requiredContrast(24, 400), rules.requiredContrast(16, 700)]") == "[3,4.5]")
    }

    @Test func hiddenAndDisabledTextIsNotJudged() throws {
        let faint = "text('rgb(220, 220, 220)', 16, 400"
        #expect(try Self.evaluate("[verdict(\(faint))), verdict(\(faint), { hidden: true })), verdict(\(faint), { disabled: true }))]")
            == #"["fails","passes","passes"]"#)
    }

    @Test func semiTransparentBackgroundsAreCompositedUpTheAncestors() throws {
        // Half-black over white is #808080: white text on it is 3.95:1, under 4.5.
        let overGrey = "text('rgb(255, 255, 255)', 16, 400, { layers: ['rgba(0, 0, 0, 0.5)', 'rgb(255, 255, 255)'] })"
        #expect(try Self.evaluate("rules.contrast(\(overGrey)).bg") == ##""#808080""##)
        // Over black instead, the same layer is black: 21:1.
        let overBlack = "text('rgb(255, 255, 255)', 16, 400, { layers: ['rgba(0, 0, 0, 0.5)', 'rgb(0, 0, 0)'] })"
        #expect(try Self.evaluate("verdict(\(overBlack))") == #""passes""#)
        // No opaque layer: the canvas is white. Half-transparent text blends into its background.
        #expect(try Self.evaluate("verdict(text('rgba(0, 0, 0, 0.3)', 16, 400, { layers: [] }))") == #""fails""#)
        #expect(try Self.evaluate("Math.round(rules.contrastRatio([0, 0, 0], [255, 255, 255]) * 100) / 100") == "21")
    }

    @Test func aHitRegionOf44PixelsIsEnough() throws {
        #expect(try Self.evaluate("[rules.tooSmall(44, 44), rules.tooSmall(43.9, 44), rules.tooSmall(48, 18), rules.tooSmall(48, 48)]")
            == "[false,true,true,false]")
    }

    @Test func textIsClippedWhenItsBoxHidesWhatOverflows() throws {
        let box = "{ scrollWidth: 300, clientWidth: 100, scrollHeight: 20, clientHeight: 20, overflowX: 'hidden', overflowY: 'hidden', textOverflow: 'clip' }"
        #expect(try Self.evaluate("[rules.clipped(\(box)), rules.clipped(Object.assign(\(box), { overflowX: 'visible' })),"
            + " rules.clipped(Object.assign(\(box), { overflowX: 'visible', textOverflow: 'ellipsis' })),"
            + " rules.clipped(Object.assign(\(box), { scrollWidth: 101 })), rules.clipped(Object.assign(\(box), { overflowX: 'auto' }))]")
            == "[true,false,true,false,false]")
    }

    @Test func rolesNeedTheirContainer() throws {
        #expect(try Self.evaluate("[rules.missingContext('listitem', 'list'), rules.missingContext('listitem', ''),"
            + " rules.missingContext('tab', 'list'), rules.missingContext('button', '')]")
            == #"[null,["list","directory"],["tablist"],null]"#)
    }

    @Test func aClickableElementNeedsARoleAFocusAndToBeInTheTree() throws {
        let div = "{ clickable: true, native: false, hiddenFromTree: false, interactiveRole: false, focusable: false }"
        #expect(try Self.evaluate("[rules.clickableIssues(\(div)), rules.clickableIssues(Object.assign(\(div), { interactiveRole: true, focusable: true })),"
            + " rules.clickableIssues(Object.assign(\(div), { hiddenFromTree: true, focusable: true })),"
            + " rules.clickableIssues(Object.assign(\(div), { native: true })), rules.clickableIssues(Object.assign(\(div), { clickable: false }))]")
            == #"[["trait","action"],[],["elementDetection"],[],[]]"#)
    }

    @Test func embeddedAuditMatchesAuditJS() throws {
        let source = try String(contentsOf: QueryScriptTests.folder.appendingPathComponent("audit.js"), encoding: .utf8)
        #expect(AuditScript.library == source, "Sources/RobotKit/Audit/AuditScriptLibrary.swift is out of date: run robotkit-page/embed")
    }
}
