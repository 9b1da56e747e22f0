import Foundation
import XCTest

extension WebApp {
    /// Audits the page's accessibility, as XCUITest's `performAccessibilityAudit(for:_:)` does
    /// a screen: each of `auditTypes` is measured in the page (docs/RobotKit.md says how), and
    /// each issue goes to `issueHandler`, which returns true to ignore it. Issues left fail the
    /// test at the caller's line (one failure listing them all) and are thrown as an
    /// ``AccessibilityAuditError``; the failing attempt's artifacts get them
    /// (`accessibility-audit.json`) and a screenshot with each element outlined
    /// (`accessibility-audit.png`). The audit is one trace step.
    public func performAccessibilityAudit(
        for auditTypes: AccessibilityAuditType = .all,
        _ issueHandler: ((AccessibilityAuditIssue) throws -> Bool)? = nil,
        function: String = #function, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        // A halted test does nothing more, as every action (Linux XCTest cannot unwind it).
        if recorder.isHalted { return }
        recorder.begin(function: function, file: "\(file)", line: line)
        defer { recorder.end() }
        let started = Date()
        let caller = CallSite(file: "\(file)", line: line, function: function)
        func step(_ arguments: [String], error: String?) -> TraceRecorder.StepDraft {
            TraceRecorder.StepDraft("audit accessibility", auditTypes.description, arguments: arguments, at: caller, started: started, error: error)
        }
        func failed(_ message: String, _ arguments: [String] = []) {
            traceStep(step(arguments, error: message))
            XCTFail(message, file: file, line: line)
        }
        let issues: [AccessibilityAuditIssue]
        do {
            issues = try auditIssues(auditTypes)
        } catch {
            failed("failed to audit accessibility (\(auditTypes)): \(error.message)")
            throw error
        }
        let left: [AccessibilityAuditIssue]
        do {
            left = try issues.filter { issue in try issueHandler?(issue) != true }
        } catch {
            failed("the accessibility audit's issue handler threw: \(error)")
            throw error
        }
        let counts = ["\(issues.count) found", "\(issues.count - left.count) ignored"]
        guard !left.isEmpty else {
            traceStep(step(counts, error: nil))
            return
        }
        let failure = AccessibilityAuditError(issues: left)
        // Taken before the failure is recorded: recording it captures the evidence.
        auditEvidence = AuditEvidence(issues: left, screenshot: outlinedScreenshot(of: left))
        defer { auditEvidence = nil }
        failed(failure.description, counts)
        throw failure
    }

    /// Runs the audit in the page and reads its issues.
    func auditIssues(_ types: AccessibilityAuditType) throws(RobotKitError) -> [AccessibilityAuditIssue] {
        let engine = try Engine(page: requirePage())
        let reply = try engine.audit(AuditScript.Call.run, [types.names])
        guard let object = reply as? [String: Any], let items = object["issues"] as? [[String: Any]] else {
            throw .webDriver(code: "javascript error", "the accessibility audit answered \(String(describing: reply))")
        }
        return try items.map { item throws(RobotKitError) in try issue(from: item) }
    }

    private func issue(from item: [String: Any]) throws(RobotKitError) -> AccessibilityAuditIssue {
        guard let name = item["type"] as? String, let type = AccessibilityAuditType(name: name),
              let compact = item["compact"] as? String, let detailed = item["detailed"] as? String,
              let element = item["element"] as? [String: Any], let mark = element["mark"] as? String,
              let typeName = element["type"] as? String, let elementType = WebElement.ElementType(rawValue: typeName)
        else {
            throw .webDriver(code: "javascript error", "the accessibility audit answered an issue RobotKit cannot read: \(item)")
        }
        let frame = element["frame"] as? [String: Double] ?? [:]
        let summary = AccessibilityAuditIssue.ElementSummary(
            type: elementType, identifier: element["identifier"] as? String, label: element["label"] as? String ?? "",
            mark: mark, frame: CGRect(x: frame["x"] ?? 0, y: frame["y"] ?? 0, width: frame["width"] ?? 0,
                                      height: frame["height"] ?? 0))
        // By identifier when that alone finds the element (a readable description), else by the mark.
        var step = QueryStep(type: elementType, identifier: summary.identifier)
        step.mark = summary.identifier == nil ? mark : nil
        step.selection = summary.identifier == nil ? .first : .unique
        return AccessibilityAuditIssue(
            auditType: type, compactDescription: compact, detailedDescription: detailed,
            element: WebElement(app: self, chain: [step]), elementSummary: summary)
    }

    /// The viewport with a numbered box around each issue's element (the numbers are the
    /// issues' places in `accessibility-audit.json`, from 1), the boxes removed after; nil when
    /// the page cannot be drawn.
    private func outlinedScreenshot(of issues: [AccessibilityAuditIssue]) -> Data? {
        guard let page else { return nil }
        let engine = Engine(page: page)
        var labels: [String: [String]] = [:]
        var order: [String] = []
        for (index, issue) in issues.enumerated() {
            let mark = issue.elementSummary.mark
            if labels[mark] == nil { order.append(mark) }
            labels[mark, default: []].append(String(index + 1))
        }
        let entries = order.map { ["mark": $0, "label": labels[$0, default: []].joined(separator: ",")] }
        defer { _ = try? engine.audit(AuditScript.Call.clear, []) }
        guard (try? engine.audit(AuditScript.Call.outline, [entries])) != nil else { return nil }
        return try? page.driver.screenshot(jpegQuality: nil)
    }
}

/// A failed audit's evidence, held by its app from just before the failure is recorded until
/// the failure's evidence is written (`FailureArtifacts`).
struct AuditEvidence {
    var issues: [AccessibilityAuditIssue]
    var screenshot: Data?

    /// `accessibility-audit.json`: the issues, in order.
    func json() throws -> Data {
        try JSONSerialization.data(withJSONObject: issues.map(\.json), options: [.prettyPrinted, .sortedKeys])
    }
}
