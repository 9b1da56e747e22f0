/// The page-side half of a trace step: the DOM as HTML with what could run removed (scripts,
/// frames, `on…` handlers, `javascript:` URLs), form values as attributes, a `<base>` so
/// relative styles and images resolve, and a CSP that forbids scripts; and the visible text
/// (4,000 characters). Incremental: unchanged since the last snapshot, it answers null.
///
/// A query script carries it along (`QueryScript.runTraced`/`waitTraced`), so a step that
/// only reads the page costs no extra round trip; `WebApp` sends it alone after actions.
enum TraceSnapshot {
    /// What a query's reply says in `traceSnapshot` when the document did not change.
    static let unchanged = "unchanged"

    /// `__robotciSnapshot(known)`: `[html, text]`, or null when `known` and nothing changed.
    static let function = """
    function __robotciSnapshot(known) {
    // Incremental: a watcher marks the document changed (DOM, attributes, text, typed
    // input); unchanged since the last snapshot (`known`), nothing is serialized (null).
    if (!window.__robotciWatch) {
        const mark = () => { window.__robotciDirty = true; };
        window.__robotciWatch = new MutationObserver(mark);
        window.__robotciWatch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        document.addEventListener("input", mark, true);
        document.addEventListener("change", mark, true);
    } else if (!window.__robotciDirty && known) {
        return null;
    }
    window.__robotciDirty = false;
    const live = document.documentElement;
    const copy = live.cloneNode(true);
    const fields = live.querySelectorAll("input, textarea, select");
    copy.querySelectorAll("input, textarea, select").forEach((el, i) => {
        const from = fields[i];
        if (!from) return;
        if (el.tagName === "TEXTAREA") el.textContent = from.value;
        else if (el.tagName === "SELECT") { Array.from(el.options).forEach((o, k) => { if (from.options[k] && from.options[k].selected) o.setAttribute("selected", ""); }); }
        else if (from.type === "checkbox" || from.type === "radio") { if (from.checked) el.setAttribute("checked", ""); }
        else if (from.type !== "password") el.setAttribute("value", from.value);
    });
    copy.querySelectorAll("script, noscript, iframe, frame, object, embed, base, meta[http-equiv]").forEach(el => el.remove());
    copy.querySelectorAll("*").forEach(el => {
        for (const a of Array.from(el.attributes)) {
            if (/^on/i.test(a.name) || /^\\s*javascript:/i.test(a.value) || (a.name === "srcdoc")) el.removeAttribute(a.name);
        }
    });
    let head = copy.querySelector("head");
    if (!head) { head = document.createElement("head"); copy.insertBefore(head, copy.firstChild); }
    const csp = document.createElement("meta");
    csp.setAttribute("http-equiv", "Content-Security-Policy");
    csp.setAttribute("content", "script-src 'none'; object-src 'none'; frame-src 'none'");
    const base = document.createElement("base");
    base.setAttribute("href", document.baseURI);
    head.insertBefore(base, head.firstChild);
    head.insertBefore(csp, head.firstChild);
    const text = document.body ? document.body.innerText : "";
    return ["<!DOCTYPE html>\\n" + copy.outerHTML, text.length > 4000 ? text.slice(0, 4000) : text];
    }
    """
}
