// RobotKit's accessibility audit: XCUITest's performAccessibilityAudit measured in the page.
// Embedded into RobotKit by robotkit-page/embed (AuditScriptLibrary.swift, checked by a test)
// and installed beside query.js, whose element model (`K.inspect`: types, names, what the tree
// shows) it reuses, so an issue's element is one a query can find.
//
// `rules` are pure functions of measured facts: tests run them under node (no DOM), so each
// rule's edges (4.5:1 exactly, large text, hidden, disabled) are pinned without a browser.
// `run` gathers the facts from the DOM and applies the rules; what it returns is decoded by
// Swift's `AccessibilityAuditReply` key by key: change both sides together.
const RKAudit = (() => {
  // ---------- rules: facts in, verdicts out

  // `rgb(…)`, `rgba(…)` or `color(srgb …)` (what getComputedStyle answers) as [r, g, b, a]
  // (0…255, alpha 0…1); null for a colour it cannot read (the element is then not judged).
  function parseColor(text) {
    const s = String(text || '').trim().toLowerCase();
    if (s === 'transparent') return [0, 0, 0, 0];
    let m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(s);
    if (m) return [+m[1], +m[2], +m[3], alpha(m[4])];
    m = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)(?:\s*\/\s*([\d.]+%?))?\s*\)$/.exec(s);
    if (m) return [m[1] * 255, m[2] * 255, m[3] * 255, alpha(m[4])];
    return null;
  }
  const alpha = (a) => (a === undefined ? 1 : a.endsWith('%') ? parseFloat(a) / 100 : +a);

  // `top` painted over the opaque `bottom` (source-over).
  function over(top, bottom) {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  }

  // WCAG 2 relative luminance of an sRGB colour (0…255 channels).
  function luminance(c) {
    const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  }

  function contrastRatio(fg, bg) {
    const a = luminance(fg), b = luminance(bg);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  }

  // WCAG's large text: 18 pt (24 CSS px), or 14 pt (18.66 px) bold.
  const isLargeText = (sizePx, weight) => sizePx >= 24 || (sizePx >= 18.66 && weight >= 700);
  const requiredContrast = (sizePx, weight) => (isLargeText(sizePx, weight) ? 3 : 4.5);

  // Contrast of text: `layers` are the background colours from the text's own box outwards
  // (the first opaque one ends them; the canvas is white under all). Hidden, aria-hidden and
  // disabled text is not judged (WCAG 1.4.3 exempts inactive components). Null when it passes.
  function contrast(f) {
    if (f.hidden || f.disabled) return null;
    const color = parseColor(f.color);
    if (!color || color[3] === 0) return null;
    let bg = [255, 255, 255, 1];
    for (let i = f.layers.length - 1; i >= 0; i--) {
      const layer = parseColor(f.layers[i]);
      if (!layer) return null;
      bg = over(layer, bg);
    }
    const fg = over([color[0], color[1], color[2], color[3] * (f.opacity === undefined ? 1 : f.opacity)], bg);
    const ratio = contrastRatio(fg, bg);
    const required = requiredContrast(f.fontSize, f.fontWeight);
    // The float error of an exact 4.5:1 must not fail it.
    return ratio + 1e-9 >= required ? null : { ratio, required, fg: hex(fg), bg: hex(bg) };
  }
  const hex = (c) => '#' + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');

  // A control's hit region (its box, with its labels' boxes for a field): under 44×44 CSS px.
  const MIN_TARGET = 44;
  const tooSmall = (width, height) => width + 0.01 < MIN_TARGET || height + 0.01 < MIN_TARGET;

  // Text cut by its own box: it overflows a box that hides what overflows, or ends in an ellipsis.
  function clipped(m) {
    const hides = (o) => o === 'hidden' || o === 'clip';
    const wide = m.scrollWidth > m.clientWidth + 1;
    const tall = m.scrollHeight > m.clientHeight + 1;
    if (m.clientWidth <= 0 || m.clientHeight <= 0) return false;
    return (wide && (hides(m.overflowX) || m.textOverflow === 'ellipsis')) || (tall && hides(m.overflowY));
  }

  // ARIA's required context roles (WCAG 1.3.1): the role an ancestor must have.
  const CONTEXT = {
    listitem: ['list', 'directory'], tab: ['tablist'], option: ['listbox', 'group'],
    menuitem: ['menu', 'menubar', 'group'], menuitemcheckbox: ['menu', 'menubar', 'group'],
    menuitemradio: ['menu', 'menubar', 'group'], treeitem: ['tree', 'group'],
    row: ['table', 'grid', 'treegrid', 'rowgroup'], rowgroup: ['table', 'grid', 'treegrid'],
    cell: ['row'], gridcell: ['row'], columnheader: ['row'], rowheader: ['row']
  };
  // `role` needs a context and the nearest ancestor with a role (`contextRole`, '' for none) is not one.
  function missingContext(role, contextRole) {
    const wanted = CONTEXT[role];
    return wanted && !wanted.includes(contextRole) ? wanted : null;
  }

  // A clickable element (`clickable`) and what the tree says of it: which audit types fail.
  function clickableIssues(f) {
    if (!f.clickable || f.native) return [];
    const out = [];
    if (f.hiddenFromTree) out.push('elementDetection');
    else if (!f.interactiveRole) out.push('trait');
    if (!f.focusable) out.push('action');
    return out;
  }

  const rules = { parseColor, over, luminance, contrastRatio, isLargeText, requiredContrast, contrast, tooSmall,
    clipped, missingContext, clickableIssues };

  // ---------- the page: facts from the DOM

  const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'slider', 'spinbutton', 'textbox', 'searchbox', 'combobox',
    'treeitem', 'gridcell', 'scrollbar']);
  const NATIVE = 'a[href], button, input, select, textarea, summary, label, details, option, video[controls], audio[controls]';
  const CONTROL_TYPES = new Set(['button', 'link', 'textField', 'secureTextField', 'textView', 'switch', 'radioButton',
    'slider', 'picker']);
  const TAG_ROLES = { ul: 'list', ol: 'list', menu: 'list', li: 'listitem', table: 'table', tr: 'row', td: 'cell',
    th: 'columnheader', tbody: 'rowgroup', thead: 'rowgroup', tfoot: 'rowgroup', select: 'listbox', option: 'option',
    optgroup: 'group', datalist: 'listbox', dl: 'list', nav: 'navigation', main: 'main', form: 'form' };
  const MARK = 'data-robotkit-audit';
  let marks = 0;

  const rendered = (el) => (typeof el.checkVisibility === 'function'
    ? el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true })
    : !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length));
  const ownText = (el) => Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.data.trim() !== '');
  const roleOf = (K, el) => K.inspect.roleOf(el) || TAG_ROLES[el.localName] || '';

  // What Swift needs to find the element again: its type, its identifier when that alone
  // finds it (no other element answers to it), and a mark (an attribute set here) otherwise.
  function reference(K, el, page) {
    const owner = K.inspect.owner(el);
    let identifier = K.inspect.identOf(owner) || null;
    if (identifier && page.all().filter((e) => e.getAttribute('data-testid') === identifier
      || (!owner.getAttribute('data-testid') && e.id === identifier)).length !== 1) identifier = null;
    if (!owner.hasAttribute(MARK)) owner.setAttribute(MARK, String(++marks));
    const r = owner.getBoundingClientRect();
    return { type: K.inspect.typeOf(owner) || 'other', identifier, mark: owner.getAttribute(MARK),
      label: K.inspect.labelOf(owner), frame: { x: r.left, y: r.top, width: r.width, height: r.height } };
  }

  const quoted = (s) => { s = String(s || '').replace(/\s+/g, ' ').trim(); return '"' + (s.length > 60 ? s.slice(0, 59) + '\u2026' : s) + '"'; };
  const px = (v) => Math.round(v * 10) / 10;

  function contrastIssues(K, page) {
    const out = [];
    for (const el of page.texts()) {
      const s = getComputedStyle(el);
      const layers = [];
      let opacity = 1, unknown = false;
      for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
        const ns = getComputedStyle(n);
        opacity *= parseFloat(ns.opacity);
        if (ns.backgroundImage !== 'none') { unknown = true; break; }
        layers.push(ns.backgroundColor);
        const c = parseColor(ns.backgroundColor);
        if (c && c[3] === 1) break;
      }
      if (unknown) continue;
      const facts = { color: s.color, layers, opacity, fontSize: parseFloat(s.fontSize), fontWeight: parseInt(s.fontWeight, 10) || 400,
        hidden: false, disabled: !K.inspect.isEnabled(K.inspect.owner(el)) || !K.inspect.isEnabled(el) };
      const bad = contrast(facts);
      if (!bad) continue;
      const size = px(facts.fontSize) + ' px' + (facts.fontWeight >= 700 ? ' bold' : '');
      out.push({ type: 'contrast', element: el, compact: 'Contrast failed',
        detailed: 'Text ' + quoted(el.textContent) + ' is ' + bad.fg + ' on ' + bad.bg + ': ' + bad.ratio.toFixed(2) + ':1, below the ' +
          bad.required + ':1 WCAG 1.4.3 asks of ' + (bad.required === 3 ? 'large text (' + size + ')' : 'text at ' + size) + '.' });
    }
    return out;
  }

  // A "stretched" control: its ::before or ::after is positioned over its whole containing
  // block (a link whose pseudo-element covers its card), so a click anywhere there reaches it.
  function stretchedBox(el) {
    for (const pseudo of ['::before', '::after']) {
      const p = getComputedStyle(el, pseudo);
      if (p.content === 'none' || p.content === 'normal' || p.position !== 'absolute') continue;
      if (![p.top, p.right, p.bottom, p.left].every((v) => v === '0px')) continue;
      for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
        if (getComputedStyle(n).position !== 'static') return n.getBoundingClientRect();
      }
    }
    return null;
  }

  function hitRegionIssues(K, page) {
    const out = [];
    for (const el of page.controls()) {
      if (!K.inspect.isEnabled(el)) continue;
      // A link inside a sentence is exempt (WCAG 2.5.8's inline exception).
      if (K.inspect.typeOf(el) === 'link' && el.parentElement && ownText(el.parentElement)) continue;
      const boxes = [el.getBoundingClientRect(), stretchedBox(el)].filter(Boolean)
        .concat(el.labels ? Array.from(el.labels).map((l) => l.getBoundingClientRect()) : []);
      const left = Math.min(...boxes.map((b) => b.left)), right = Math.max(...boxes.map((b) => b.right));
      const top = Math.min(...boxes.map((b) => b.top)), bottom = Math.max(...boxes.map((b) => b.bottom));
      if (!tooSmall(right - left, bottom - top)) continue;
      out.push({ type: 'hitRegion', element: el, compact: 'Hit region is too small',
        detailed: 'The control is ' + px(right - left) + '×' + px(bottom - top) + ' CSS px, under the ' + MIN_TARGET +
          '×' + MIN_TARGET + ' a finger needs (WCAG 2.5.5).' });
    }
    return out;
  }

  // The name a control's content gives it beyond its text: an image's alt, an SVG's title, an aria-label inside.
  function contentName(el) {
    for (const d of el.querySelectorAll('img[alt], svg title, [aria-label]')) {
      const t = d.localName === 'img' ? d.getAttribute('alt') : d.localName === 'title' ? d.textContent : d.getAttribute('aria-label');
      if (t && t.trim() && !d.closest('[aria-hidden="true"]')) return t;
    }
    return '';
  }

  function descriptionIssues(K, page) {
    const out = [];
    for (const el of page.elements()) {
      const type = K.inspect.typeOf(el);
      const image = el.localName === 'img' || el.localName === 'svg' || roleOf(K, el) === 'img';
      if (!CONTROL_TYPES.has(type) && !image) continue;
      // alt="" and role=presentation say "decorative": nothing to name.
      if (el.getAttribute('alt') === '' || ['presentation', 'none'].includes(K.inspect.roleOf(el))) continue;
      if (K.inspect.labelOf(el, type) || contentName(el)) continue;
      out.push({ type: 'sufficientElementDescription', element: el, compact: 'Element has no description',
        detailed: 'This ' + (image ? 'image' : type) + ' has no accessible name (aria-label, a <label>, alt, text or title), ' +
          'so a screen reader cannot say what it is (WCAG 1.1.1, 4.1.2).' });
    }
    return out;
  }

  function clippedIssues(page, measure) {
    const out = [];
    for (const el of page.texts().concat(page.controls())) {
      const s = getComputedStyle(el);
      if (!measure(el, s)) continue;
      out.push({ type: 'textClipped', element: el, compact: 'Text clipped',
        detailed: 'Text ' + quoted(el.textContent) + ' is cut off by its box (' + el.scrollWidth + '×' + el.scrollHeight +
          ' px of text in ' + el.clientWidth + '×' + el.clientHeight + ', ' +
          (s.textOverflow === 'ellipsis' ? 'ellipsis' : 'overflow ' + s.overflowX + '/' + s.overflowY) + ') (WCAG 1.4.4).' });
    }
    return out;
  }

  const isClipped = (el, s) => clipped({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, scrollHeight: el.scrollHeight,
    clientHeight: el.clientHeight, overflowX: s.overflowX, overflowY: s.overflowY, textOverflow: s.textOverflow });

  function clickableFacts(K, el) {
    const s = getComputedStyle(el);
    const handler = el.hasAttribute('onclick') || typeof el.onclick === 'function';
    // cursor: pointer set here (not inherited from a clickable ancestor) marks an element the page made clickable.
    const pointer = s.cursor === 'pointer' && !(el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer');
    const role = K.inspect.roleOf(el);
    return {
      clickable: handler || pointer,
      native: el.matches(NATIVE) || !!(el.parentElement && el.parentElement.closest(NATIVE)),
      hiddenFromTree: !!el.closest('[aria-hidden="true"]') || role === 'presentation' || role === 'none',
      interactiveRole: INTERACTIVE_ROLES.has(role),
      focusable: el.tabIndex >= 0
    };
  }

  const CLICK_TEXT = {
    elementDetection: ['Element may not be detected', 'It reacts to clicks but is hidden from assistive technology (aria-hidden or role ' +
      'presentation), so VoiceOver and screen readers never find it (WCAG 4.1.2).'],
    trait: ['Element has no button or link trait', 'It reacts to clicks but has no role that says so (button, link, …): assistive ' +
      'technology announces it as plain content (WCAG 4.1.2).'],
    action: ['Element has no keyboard action', 'It reacts to clicks but cannot take the focus (no tabindex, not a native control), ' +
      'so it cannot be activated without a pointer (WCAG 2.1.1).']
  };

  function clickIssues(K, page, types) {
    const out = [];
    for (const el of page.all(true)) {
      for (const type of clickableIssues(clickableFacts(K, el))) {
        if (!types.includes(type)) continue;
        out.push({ type, element: el, compact: CLICK_TEXT[type][0], detailed: CLICK_TEXT[type][1] });
      }
    }
    return out;
  }

  function parentChildIssues(K, page) {
    const out = [];
    for (const el of page.elements()) {
      const role = roleOf(K, el);
      if (!CONTEXT[role]) continue;
      // The nearest ancestor with a role: generic wrappers (div, span) are skipped, as the tree skips them.
      let context = '';
      for (let n = el.parentElement; n && n !== document.body; n = n.parentElement) {
        const r = roleOf(K, n);
        if (r && r !== 'presentation' && r !== 'none' && r !== 'generic') { context = r; break; }
      }
      const wanted = missingContext(role, context);
      if (!wanted) continue;
      out.push({ type: 'parentChild', element: el, compact: 'Element is outside its container',
        detailed: 'A ' + role + ' belongs in a ' + wanted.join(' or ') + ', but its container is ' +
          (context ? 'a ' + context : 'none') + ' (WCAG 1.3.1).' });
    }
    return out;
  }

  // The text's box as drawn (a range over its content: a box with a fixed height does not grow).
  function textRect(el) {
    const range = document.createRange();
    range.selectNodeContents(el);
    return range.getBoundingClientRect();
  }

  function overlapping(texts) {
    const rects = texts.map(textRect);
    const pairs = new Set();
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const a = rects[i], b = rects[j];
        if (texts[i].contains(texts[j]) || texts[j].contains(texts[i])) continue;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) pairs.add(i + ':' + j);
      }
    }
    return pairs;
  }

  // Text at 200 % text size: the root font size doubled (what a reader's browser setting does
  // to rem and em sizes), measured, and restored before anything else runs.
  function dynamicTypeIssues(page) {
    const root = document.documentElement;
    const texts = page.texts();
    const clippedBefore = new Set(texts.filter((el) => isClipped(el, getComputedStyle(el))));
    const overlapBefore = overlapping(texts);
    const inline = root.style.getPropertyValue('font-size'), priority = root.style.getPropertyPriority('font-size');
    const base = parseFloat(getComputedStyle(root).fontSize) || 16;
    root.style.setProperty('font-size', base * 2 + 'px', 'important');
    const out = [];
    try {
      for (const el of texts) {
        if (!clippedBefore.has(el) && isClipped(el, getComputedStyle(el))) {
          out.push({ type: 'dynamicType', element: el, compact: 'Text clipped at a larger text size',
            detailed: 'Text ' + quoted(el.textContent) + ' is cut off by its box at 200 % text size (WCAG 1.4.4).' });
        }
      }
      const flagged = new Set(out.map((i) => i.element));
      for (const pair of overlapping(texts)) {
        if (overlapBefore.has(pair)) continue;
        const [a, b] = pair.split(':').map((i) => texts[+i]);
        if (flagged.has(a)) continue;
        flagged.add(a);
        out.push({ type: 'dynamicType', element: a, compact: 'Text overlaps at a larger text size',
          detailed: 'Text ' + quoted(a.textContent) + ' overlaps ' + quoted(b.textContent) + ' at 200 % text size (WCAG 1.4.4).' });
      }
    } finally {
      if (inline) root.style.setProperty('font-size', inline, priority); else root.style.removeProperty('font-size');
    }
    return out;
  }

  // The page's elements, read once per audit: every element the tree shows, the rendered
  // text elements (text inside a control counts: its colours are the control's), the controls.
  function pageOf(K) {
    const cache = {};
    const once = (key, make) => cache[key] || (cache[key] = make());
    const every = () => once('every', () => Array.from(document.body ? document.body.querySelectorAll('*') : [])
      .filter((el) => !el.closest('[data-robotkit-outline]')));
    const page = {
      all: (withHidden) => (withHidden ? once('shown', () => every().filter(rendered))
        : once('all', () => every().filter((el) => K.inspect.typeOf(el) !== null && K.inspect.visible(el)))),
      elements: () => page.all(),
      texts: () => once('texts', () => every().filter((el) => ownText(el) && rendered(el) && !el.closest('[aria-hidden="true"]')
        && el.getBoundingClientRect().width > 1 && el.getBoundingClientRect().height > 1 && !el.closest('option, select'))),
      controls: () => once('controls', () => page.all().filter((el) => CONTROL_TYPES.has(K.inspect.typeOf(el))))
    };
    return page;
  }

  // Runs the audit types asked for (XCUITest's names) and answers { issues: [...] }, each with
  // its type, descriptions and element reference; an element has at most one issue of a type.
  function run(K, types) {
    K.inspect.fresh();
    const page = pageOf(K);
    const found = [];
    const want = (t) => types.includes(t);
    if (want('contrast')) found.push(...contrastIssues(K, page));
    if (want('hitRegion')) found.push(...hitRegionIssues(K, page));
    if (want('sufficientElementDescription')) found.push(...descriptionIssues(K, page));
    if (want('textClipped')) found.push(...clippedIssues(page, isClipped));
    if (want('elementDetection') || want('trait') || want('action')) found.push(...clickIssues(K, page, types));
    if (want('parentChild')) found.push(...parentChildIssues(K, page));
    if (want('dynamicType')) found.push(...dynamicTypeIssues(page));
    const seen = new Set();
    const issues = [];
    for (const issue of found) {
      const ref = reference(K, issue.element, page);
      const key = issue.type + ' ' + ref.mark;
      if (seen.has(key)) continue;
      seen.add(key);
      issues.push({ type: issue.type, compact: issue.compact, detailed: issue.detailed, element: ref });
    }
    return { issues };
  }

  // Outlines the marked elements (numbered as `labels` says) for the failure's screenshot;
  // `clear` removes them. The outlines take no pointer and sit above everything.
  function outline(entries) {
    clear();
    const layer = document.createElement('div');
    layer.setAttribute('data-robotkit-outline', '');
    layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647;';
    for (const entry of entries) {
      const el = document.querySelector('[' + MARK + '="' + String(entry.mark).replace(/["\\]/g, '') + '"]');
      if (!el) continue;
      const r = el.getBoundingClientRect();
      const box = document.createElement('div');
      box.style.cssText = 'position:fixed;box-sizing:border-box;border:3px solid #e0115f;outline:1px solid #fff;' +
        'left:' + (r.left - 3) + 'px;top:' + (r.top - 3) + 'px;width:' + (r.width + 6) + 'px;height:' + (r.height + 6) + 'px;';
      const tag = document.createElement('span');
      tag.textContent = entry.label;
      tag.style.cssText = 'position:absolute;left:-3px;top:-20px;background:#e0115f;color:#fff;font:bold 12px/16px sans-serif;padding:0 4px;';
      box.appendChild(tag);
      layer.appendChild(box);
    }
    document.documentElement.appendChild(layer);
    return layer.childElementCount;
  }

  function clear() {
    for (const layer of document.querySelectorAll('[data-robotkit-outline]')) layer.remove();
    return true;
  }

  return { rules, run, outline, clear };
})();
