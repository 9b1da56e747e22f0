// RobotKit's page script: resolves a query chain (type + identifier, scoped by earlier
// matches) and performs one operation on the first match, in one WebDriver round trip.
// Embedded into RobotKit by robotkit-page/embed (QueryScriptLibrary.swift, checked by a test).
// The operations in `perform` are Swift's `QueryOperation`; what it returns is decoded key by
// key by `QueryReply` (a missing key is an error there): change both sides together.
const RK = (() => {
  const ROLE_TYPES = {
    button: 'button', menuitem: 'button', tab: 'button',
    link: 'link', img: 'image', image: 'image',
    switch: 'switch', checkbox: 'switch', menuitemcheckbox: 'switch',
    radio: 'radioButton', menuitemradio: 'radioButton', slider: 'slider',
    textbox: 'textField', searchbox: 'textField', combobox: 'textField', spinbutton: 'textField',
    listbox: 'picker', row: 'cell', listitem: 'cell', option: 'cell', treeitem: 'cell',
    navigation: 'navigationBar', banner: 'navigationBar', toolbar: 'navigationBar',
    heading: 'staticText', status: 'staticText', alert: 'staticText', note: 'staticText',
    tooltip: 'staticText', paragraph: 'staticText', term: 'staticText', definition: 'staticText',
    caption: 'staticText', timer: 'staticText', log: 'staticText', marquee: 'staticText',
    group: 'other', region: 'other', main: 'other', dialog: 'other', alertdialog: 'other',
    form: 'other', list: 'other', grid: 'other', table: 'other', tablist: 'other', tabpanel: 'other',
    menu: 'other', menubar: 'other', article: 'other', feed: 'other', tree: 'other',
    complementary: 'other', contentinfo: 'other', search: 'other', presentation: 'other',
    none: 'other', generic: 'other', application: 'other', document: 'other'
  };
  const NAMES = {
    any: 'Any', other: 'Other', button: 'Button', staticText: 'StaticText', textField: 'TextField',
    secureTextField: 'SecureTextField', textView: 'TextView', scrollView: 'ScrollView', cell: 'Cell',
    image: 'Image', switch: 'Switch', link: 'Link', navigationBar: 'NavigationBar',
    radioButton: 'RadioButton', slider: 'Slider', picker: 'Picker'
  };
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title',
    'br', 'wbr', 'source', 'track', 'param', 'base']);
  const TEXT_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'label', 'span', 'strong', 'em',
    'b', 'i', 'small', 'code', 'pre', 'blockquote', 'figcaption', 'caption', 'legend', 'dt', 'dd',
    'time', 'output', 'th', 'td', 'abbr', 'cite', 'q', 'mark', 'sub', 'sup', 'u', 's', 'del', 'ins',
    'kbd', 'samp', 'var']);
  const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'dfn',
    'em', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u',
    'var', 'wbr', 'del', 'ins']);
  const TEXT_NAMED = new Set(['button', 'link', 'staticText', 'switch', 'radioButton']);
  const LEAF_TYPES = new Set(['button', 'link', 'textField', 'secureTextField', 'textView', 'image',
    'switch', 'radioButton', 'slider', 'picker']);
  const LEAF_SELECTOR = 'button, a[href], input, textarea, select, summary, img, svg, canvas, ' +
    '[role=button], [role=link], [role=switch], [role=checkbox], [role=radio], [role=slider], ' +
    '[role=textbox], [role=searchbox], [role=img], [role=menuitem], [role=tab], [role=spinbutton]';
  const INPUT_BUTTONS = new Set(['button', 'submit', 'reset', 'image', 'file', 'color']);

  let types = new Map();
  const norm = (s) => (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim();
  const roleOf = (el) => norm(el.getAttribute('role')).split(' ')[0].toLowerCase();
  const identOf = (el) => el.getAttribute('data-testid') || el.id || '';

  function typeOf(el) {
    let t = types.get(el);
    if (t === undefined) { t = classify(el); types.set(el, t); }
    return t;
  }

  function classify(el) {
    const tag = el.localName;
    if (SKIP.has(tag)) return null;
    const role = roleOf(el);
    if (role && ROLE_TYPES[role] && ROLE_TYPES[role] !== 'other') return ROLE_TYPES[role];
    switch (tag) {
      case 'button': case 'summary': return 'button';
      case 'input': {
        const t = (el.getAttribute('type') || 'text').toLowerCase();
        if (t === 'hidden') return null;
        if (t === 'password') return 'secureTextField';
        if (INPUT_BUTTONS.has(t)) return 'button';
        if (t === 'checkbox') return 'switch';
        if (t === 'radio') return 'radioButton';
        if (t === 'range') return 'slider';
        return 'textField';
      }
      case 'textarea': return 'textView';
      case 'select': return 'picker';
      case 'a': case 'area': if (el.hasAttribute('href')) return 'link'; break;
      case 'img': case 'svg': case 'canvas': case 'picture': case 'video': return 'image';
      case 'li': case 'tr': return 'cell';
      case 'nav': return 'navigationBar';
      case 'header':
        if (!el.parentElement || !el.parentElement.closest('article, aside, main, nav, section')) return 'navigationBar';
        break;
    }
    if (role && ROLE_TYPES[role] === 'other') return 'other';
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textView';
    if (isScrollable(el)) return 'scrollView';
    if (isTextual(el)) return 'staticText';
    return 'other';
  }

  function isScrollable(el) {
    if (el === document.documentElement || el === document.body) return false;
    const s = getComputedStyle(el);
    return /(auto|scroll|overlay)/.test(s.overflowY + ' ' + s.overflowX);
  }

  function isTextual(el) {
    if (TEXT_TAGS.has(el.localName)) return norm(el.textContent) !== '';
    let text = false;
    for (const n of el.childNodes) {
      if (n.nodeType === 3) { if (n.data.trim()) text = true; }
      else if (n.nodeType === 1 && !INLINE_TAGS.has(n.localName)) return false;
    }
    return text;
  }

  function visible(el) {
    if (el.closest('[aria-hidden="true"]')) return false;
    if (el.parentElement && el.parentElement.closest(LEAF_SELECTOR)) return false;
    if (typeof el.checkVisibility === 'function') {
      return el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true });
    }
    return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  }

  function labelOf(el, type) {
    type = type || typeOf(el);
    const aria = el.getAttribute('aria-label');
    if (aria && aria.trim()) return norm(aria);
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const t = norm(by.split(/\s+/).map((i) => { const e = document.getElementById(i); return e ? e.textContent : ''; }).join(' '));
      if (t) return t;
    }
    const tag = el.localName;
    if (el.labels && el.labels.length) {
      const t = norm(Array.from(el.labels).map((l) => l.textContent).join(' '));
      if (t) return t;
    }
    if (tag === 'img' || tag === 'area' || (tag === 'input' && el.type === 'image')) {
      const alt = el.getAttribute('alt');
      if (alt && alt.trim()) return norm(alt);
    }
    if (tag === 'input' && ['button', 'submit', 'reset'].includes(el.type)) {
      return norm(el.value) || (el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : '');
    }
    if (tag === 'svg') {
      const t = el.querySelector('title');
      if (t && norm(t.textContent)) return norm(t.textContent);
    }
    if (TEXT_NAMED.has(type)) {
      const t = norm(el.innerText !== undefined ? el.innerText : el.textContent);
      if (t) return t;
    }
    if (type === 'navigationBar') {
      const h = el.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]');
      if (h && norm(h.textContent)) return norm(h.textContent);
    }
    if (tag === 'fieldset') {
      const l = el.querySelector(':scope > legend');
      if (l && norm(l.textContent)) return norm(l.textContent);
    }
    const title = el.getAttribute('title');
    if (title && title.trim()) return norm(title);
    const placeholder = el.getAttribute('placeholder');
    if (placeholder && placeholder.trim()) return norm(placeholder);
    return '';
  }

  function valueOf(el, type) {
    const tag = el.localName;
    if (type === 'switch' || type === 'radioButton') {
      if (tag === 'input') return el.checked ? '1' : '0';
      return el.getAttribute('aria-checked') === 'true' || el.getAttribute('aria-pressed') === 'true' ? '1' : '0';
    }
    if (tag === 'input' && el.type === 'password') return '\u2022'.repeat(el.value.length);
    if (tag === 'input' || tag === 'textarea') return el.value;
    if (tag === 'select') { const o = el.selectedOptions[0]; return o ? norm(o.textContent) : ''; }
    if (el.isContentEditable) return el.innerText;
    const vt = el.getAttribute('aria-valuetext');
    if (vt !== null) return vt;
    const vn = el.getAttribute('aria-valuenow');
    if (vn !== null) return vn;
    if (tag === 'progress' || tag === 'meter') return String(el.value);
    return null;
  }

  function isEnabled(el) {
    if (el.disabled) return false;
    if (el.closest('[aria-disabled="true"]')) return false;
    return !el.closest('fieldset[disabled]') || el.closest('legend') !== null;
  }

  function isSelected(el, type) {
    if ((type === 'switch' || type === 'radioButton') && el.localName === 'input') return el.checked;
    if (el.localName === 'option') return el.selected;
    for (const a of ['aria-selected', 'aria-checked', 'aria-pressed']) if (el.getAttribute(a) === 'true') return true;
    const current = el.getAttribute('aria-current');
    return current !== null && current !== 'false';
  }

  function isHittable(el) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    if (getComputedStyle(el).pointerEvents === 'none') return false;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;
    const hit = document.elementFromPoint(x, y);
    if (!hit) return false;
    if (hit === el || el.contains(hit)) return true;
    return !!(el.labels && Array.from(el.labels).some((l) => l.contains(hit)));
  }

  // Where a real pointer would tap `el`: its center, scrolled into view first when it
  // is outside the viewport; null while another element covers that point.
  function tapPoint(el) {
    let r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return null;
    if (getComputedStyle(el).pointerEvents === 'none') return null;
    let x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      r = el.getBoundingClientRect();
      x = r.left + r.width / 2; y = r.top + r.height / 2;
    }
    const hit = document.elementFromPoint(x, y);
    if (!hit) return null;
    if (hit !== el && !el.contains(hit) && !(el.labels && Array.from(el.labels).some((l) => l.contains(hit)))) return null;
    return { x: Math.floor(x), y: Math.floor(y) };
  }

  function coverOf(el) {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit && hit !== el && !el.contains(hit) ? describe(hit, typeOf(hit) || 'other') : '';
  }

  function frameOf(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  }

  function info(el) {
    const type = typeOf(el);
    return {
      type: type, identifier: identOf(el), label: labelOf(el, type), value: valueOf(el, type),
      placeholder: el.getAttribute('placeholder') || '', enabled: isEnabled(el),
      selected: isSelected(el, type), focused: document.activeElement === el,
      hittable: isHittable(el), frame: frameOf(el), title: el.getAttribute('title') || ''
    };
  }

  function significant(el, type) {
    if (type !== 'other') return true;
    if (identOf(el)) return true;
    const role = roleOf(el);
    return !!role && role !== 'presentation' && role !== 'none' && role !== 'generic';
  }

  function childrenOf(root) {
    const out = [];
    const walk = (el) => {
      for (const c of el.children) {
        const type = typeOf(c);
        if (type === null) continue;
        if (significant(c, type)) out.push(c); else walk(c);
      }
    };
    walk(root);
    return out;
  }

  function typeMatches(el, want) {
    const type = typeOf(el);
    if (type === null) return false;
    return want === 'any' || type === want;
  }

  function byIdentifier(list, id) {
    let hits = list.filter((el) => el.getAttribute('data-testid') === id);
    if (hits.length) return hits;
    hits = list.filter((el) => el.id === id);
    if (hits.length) return hits;
    const name = norm(id);
    return list.filter((el) => labelOf(el) === name);
  }

  // Predicates: ElementPredicate's JSON (Swift parses the format), compiled once per query
  // into a function of `read(key)`, so the DOM's attributes and a test's plain object both fit.
  class PredicateError extends Error {
    constructor(message) { super(message); this.name = 'PredicateError'; }
  }
  const ATTRIBUTES = {
    label: (el, type) => labelOf(el, type),
    identifier: (el) => identOf(el),
    // An element without a value compares as '', as XCUITest's nil does with every operator.
    value: (el, type) => { const v = valueOf(el, type); return v == null ? '' : String(v); },
    placeholderValue: (el) => el.getAttribute('placeholder') || '',
    elementType: (el, type) => type
  };
  const stripMarks = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const fold = (s, c, d) => { if (d) s = stripMarks(s); return c ? s.toLowerCase() : s; };

  function regex(source, caseless, what) {
    const flags = caseless ? 'i' : '';
    // ICU (NSPredicate's engine) takes \p{L}; JavaScript only with 'u', which refuses some
    // escapes ICU allows: try both before refusing.
    try { return new RegExp('^(?:' + source + ')$', 'u' + flags); } catch (e) { /* try without 'u' */ }
    try { return new RegExp('^(?:' + source + ')$', flags); } catch (e) {
      throw new PredicateError('invalid ' + what + ' "' + source + '": ' + e.message);
    }
  }

  function compileTest(n) {
    const want = fold(String(n.text), n.c, n.d);
    switch (n.test) {
      case 'equals': return (s) => fold(s, n.c, n.d) === want;
      case 'notEquals': return (s) => fold(s, n.c, n.d) !== want;
      case 'beginsWith': return (s) => fold(s, n.c, n.d).startsWith(want);
      case 'contains': return (s) => fold(s, n.c, n.d).includes(want);
      case 'endsWith': return (s) => fold(s, n.c, n.d).endsWith(want);
      case 'like': {
        const source = want.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '[\\s\\S]');
        const re = regex(source, false, 'LIKE pattern');
        return (s) => re.test(fold(s, n.c, n.d));
      }
      case 'matches': {
        // The pattern is not lowercased (that would turn \D into \d): [c] is the 'i' flag.
        const re = regex(n.d ? stripMarks(String(n.text)) : String(n.text), n.c, 'regular expression');
        return (s) => re.test(fold(s, false, n.d));
      }
      default: throw new PredicateError('unknown predicate operator ' + n.test);
    }
  }

  function compilePredicate(node) {
    switch (node.op) {
      case 'compare': {
        if (!ATTRIBUTES[node.key]) throw new PredicateError('unknown predicate key ' + node.key);
        const test = compileTest(node);
        return (read) => test(String(read(node.key)));
      }
      case 'and': { const [a, b] = node.of.map(compilePredicate); return (read) => a(read) && b(read); }
      case 'or': { const [a, b] = node.of.map(compilePredicate); return (read) => a(read) || b(read); }
      case 'not': { const a = compilePredicate(node.of[0]); return (read) => !a(read); }
      case 'constant': return () => node.value === true;
      case 'invalid': throw new PredicateError(node.message);
      default: throw new PredicateError('unknown predicate ' + node.op);
    }
  }

  const satisfies = (test, el, type) => !test || test((key) => ATTRIBUTES[key](el, type));

  // A link's predicates, compiled: its own and each `containing`'s.
  function compileLink(link) {
    return {
      where: link.where ? compilePredicate(link.where) : null,
      containing: (link.containing || []).map((c) => ({
        link: { type: c.type, id: c.id, scope: 'descendants' },
        compiled: { where: c.where ? compilePredicate(c.where) : null, containing: [] }
      }))
    };
  }

  function collect(roots, link, compiled) {
    const out = [];
    const seen = new Set();
    for (const root of roots) {
      const nodes = link.scope === 'children' ? childrenOf(root) : root.querySelectorAll('*');
      for (const el of nodes) {
        if (seen.has(el)) continue;
        seen.add(el);
        // An element the accessibility audit marked (its issue's element) is found by its mark,
        // even where the tree hides it: an elementDetection issue is about such an element.
        if (link.mark != null) {
          if (el.getAttribute('data-robotkit-audit') !== link.mark || !typeMatches(el, link.type)) continue;
        } else if (!typeMatches(el, link.type) || !visible(el)) continue;
        if (!satisfies(compiled.where, el, typeOf(el))) continue;
        if (!compiled.containing.every((c) => collect([el], c.link, c.compiled).length > 0)) continue;
        out.push(el);
      }
    }
    return link.id == null ? out : byIdentifier(out, link.id);
  }

  function resolve(spec) {
    types = new Map();
    // Before any element: a refused predicate fails the query even when nothing would match.
    const compiled = spec.chain.map(compileLink);
    // No root while a document is torn down (a navigation) or not parsed yet: nothing matches.
    let roots = document.documentElement ? [document.documentElement] : [];
    let count = roots.length;
    let ambiguous = false;
    for (const [i, link] of spec.chain.entries()) {
      let found = collect(roots, link, compiled[i]);
      count = found.length;
      ambiguous = false;
      const select = link.select;
      if (select) {
        if (select.mode === 'index') found = select.index < found.length && select.index >= 0 ? [found[select.index]] : [];
        else { ambiguous = select.mode === 'unique' && found.length > 1; found = found.slice(0, 1); }
      }
      roots = found;
    }
    return { count: count, ambiguous: ambiguous, elements: roots };
  }

  function scrollTarget(el) {
    for (let n = el; n && n !== document.documentElement && n !== document.body; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (/(auto|scroll|overlay)/.test(s.overflowY + ' ' + s.overflowX) &&
          (n.scrollHeight > n.clientHeight || n.scrollWidth > n.clientWidth)) return n;
    }
    return document.scrollingElement || document.documentElement;
  }

  function scroll(el, direction) {
    const target = scrollTarget(el);
    const page = target === document.scrollingElement || target === document.documentElement;
    const h = (page ? innerHeight : target.clientHeight) * 0.8;
    const w = (page ? innerWidth : target.clientWidth) * 0.8;
    const before = [target.scrollLeft, target.scrollTop];
    const dx = direction === 'left' ? w : direction === 'right' ? -w : 0;
    const dy = direction === 'up' ? h : direction === 'down' ? -h : 0;
    target.scrollBy({ left: dx, top: dy, behavior: 'instant' });
    return before[0] !== target.scrollLeft || before[1] !== target.scrollTop;
  }

  function quote(s, limit) {
    s = norm(s);
    if (s.length > limit) s = s.slice(0, limit - 1) + '\u2026';
    return "'" + s.replace(/'/g, "\\'") + "'";
  }

  function describe(el, type) {
    const i = info(el);
    const f = i.frame;
    let line = NAMES[type] + ', {{' + f.x.toFixed(1) + ', ' + f.y.toFixed(1) + '}, {' + f.width.toFixed(1) + ', ' + f.height.toFixed(1) + '}}';
    if (i.identifier) line += ', identifier: ' + quote(i.identifier, 200);
    if (i.label) line += ', label: ' + quote(i.label, 120);
    if (i.value !== null && i.value !== '') line += ', value: ' + quote(i.value, 120);
    if (i.placeholder) line += ', placeholderValue: ' + quote(i.placeholder, 80);
    if (!i.enabled) line += ', Disabled';
    if (i.selected) line += ', Selected';
    if (i.focused) line += ', Focused';
    return line;
  }

  function tree(root) {
    const lines = [];
    if (root === document.documentElement) {
      lines.push('Application, url: ' + quote(location.href, 300) + ', title: ' + quote(document.title, 120));
    } else {
      lines.push(describe(root, typeOf(root) || 'other'));
    }
    const visit = (el, depth) => {
      for (const c of el.children) {
        const type = typeOf(c);
        if (type === null || !visible(c)) continue;
        if (significant(c, type)) {
          lines.push('  '.repeat(depth) + describe(c, type));
          if (!LEAF_TYPES.has(type)) visit(c, depth + 1);
        } else {
          visit(c, depth);
        }
      }
    };
    visit(root, 1);
    return lines.join('\n');
  }

  // Focuses `el` for typing, its caret at the end of its text (where a person's click in a
  // field would leave it); true when it has the focus. A field that has the focus already
  // keeps its caret and selection: keys pressed one after another act where the last left off.
  function focusForTyping(el) {
    if (document.activeElement === el) return true;
    el.focus();
    if (typeof el.setSelectionRange === 'function' && typeof el.value === 'string') {
      try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { /* types without a caret */ }
    } else if (el.isContentEditable) {
      const range = document.createRange();
      range.selectNodeContents(el);
      range.collapse(false);
      const selection = document.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    }
    return document.activeElement === el || el.contains(document.activeElement);
  }

  function prepareClear(el) {
    el.focus();
    if (typeof el.select === 'function') {
      try { el.select(); } catch (e) { /* inputs without text selection */ }
    } else if (el.isContentEditable) {
      document.getSelection().selectAllChildren(el);
    }
    return document.activeElement === el || el.contains(document.activeElement);
  }

  // An attribute a wait compares, by the name Swift's key path has (`label`, `isSelected`…),
  // or the query's `count`; null when there is no match to read it from.
  function attributeOf(r, name) {
    if (name === 'count') return r.count;
    const el = r.elements[0];
    if (name === 'exists') return !!el;
    if (!el) return null;
    const i = info(el);
    switch (name) {
      case 'label': return i.label;
      case 'value': return i.value;
      case 'identifier': return i.identifier;
      case 'placeholderValue': return i.placeholder || null;
      case 'title': return i.title;
      case 'isEnabled': return i.enabled;
      case 'isSelected': return i.selected;
      case 'isHittable': return i.hittable;
      case 'hasFocus': return i.focused;
      default: throw new Error('no attribute ' + name + ' to wait for');
    }
  }

  function same(a, b) {
    return a === b || (a !== null && b !== null && typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b));
  }

  function perform(r, op, argument) {
    const el = r.elements[0];
    const base = { count: r.count, ambiguous: r.ambiguous, exists: !!el };
    switch (op) {
      case 'count': return base;
      case 'probe': if (el) base.info = info(el); return base;
      case 'focus': base.focused = el ? focusForTyping(el) : false; return base;
      case 'point':
        if (el) { base.point = tapPoint(el); if (!base.point) base.cover = coverOf(el); }
        return base;
      case 'prepareClear': base.focused = el ? prepareClear(el) : false; return base;
      case 'scroll': base.scrolled = el ? scroll(el, argument) : false; return base;
      case 'tree': base.tree = el ? tree(el) : ''; return base;
      case 'reveal':
        if (el) { el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' }); base.info = info(el); }
        return base;
      default: throw new Error('unknown operation ' + op);
    }
  }

  // What a query the page refuses answers, instead of an exception with a stack.
  const refusal = (e) => ({ error: e.message, invalidQuery: true });

  return {
    run: (spec, op, argument) => {
      let r;
      try { r = resolve(spec); } catch (e) { if (e instanceof PredicateError) return refusal(e); throw e; }
      return perform(r, op, argument);
    },
    // The element model, for the accessibility audit (audit.js): `fresh` forgets the types
    // read before (the page may have changed); `owner` is the element the tree shows for `el`
    // (the outermost control around it, else itself), which a query can find.
    inspect: {
      fresh: () => { types = new Map(); },
      typeOf, labelOf, visible, isEnabled, identOf, roleOf,
      owner: (el) => {
        let owner = el;
        for (let n = el.parentElement && el.parentElement.closest(LEAF_SELECTOR); n; n = n.parentElement && n.parentElement.closest(LEAF_SELECTOR)) owner = n;
        return owner;
      }
    },
    // For tests under node (no DOM): `node` against plain attributes.
    evaluatePredicate: (node, attributes) => compilePredicate(node)((key) => attributes[key] ?? ''),
    wait: (spec, mode, timeoutMs, op, done) => {
      const deadline = Date.now() + timeoutMs;
      let finished = false, pending = false, observer = null, timer = null;
      const finish = (value) => {
        finished = true;
        if (observer) observer.disconnect();
        if (timer) clearInterval(timer);
        done(value);
      };
      const check = () => {
        if (finished) return;
        // A document being torn down says nothing about the next one: a navigation ends this
        // wait's evaluation and Swift waits again there (before the deadline, that is).
        if (!document.documentElement && Date.now() < deadline) return;
        let r, satisfied;
        try {
          r = resolve(spec);
          const present = r.elements.length > 0;
          satisfied = mode === 'appear' ? present
            : mode === 'actionable' ? present && tapPoint(r.elements[0]) !== null
            : mode === 'disappear' ? !present
            : same(attributeOf(r, mode.attribute), mode.expected);
        } catch (e) { finish(e instanceof PredicateError ? refusal(e) : { error: String(e) }); return; }
        if (satisfied || Date.now() >= deadline) {
          const value = perform(r, op, null);
          value.satisfied = satisfied;
          if (typeof mode === 'object') value.seen = JSON.stringify(attributeOf(r, mode.attribute));
          finish(value);
        }
      };
      check();
      if (finished) return;
      observer = new MutationObserver(() => {
        if (pending) return;
        pending = true;
        setTimeout(() => { pending = false; check(); }, 0);
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      timer = setInterval(check, 50);
    }
  };
})();
