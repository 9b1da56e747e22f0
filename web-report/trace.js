'use strict';
// The step trace viewer (robotci-trace-v1): one page per kept attempt trace, written by robotci
// beside trace.json. Steps as a timeline; a step opens its screenshot, its DOM snapshot in a
// sandboxed frame (no script runs), its mock requests and its console. When the attempt parted
// from a passing one, the passing attempt's step is shown beside it. DOM built with
// createElement/textContent only; files are linked by relative paths checked below.
(function () {
  const $ = (id) => document.getElementById(id);
  function h(tag, props, ...kids) {
    const el = document.createElement(tag);
    if (props) for (const k of Object.keys(props)) { if (props[k] !== null && props[k] !== undefined && props[k] !== false) el.setAttribute(k, props[k] === true ? '' : String(props[k])); }
    add(el, kids);
    return el;
  }
  function add(el, kids) {
    for (const k of kids) {
      if (k === null || k === undefined || k === false) continue;
      if (Array.isArray(k)) add(el, k);
      else el.append(k instanceof Node ? k : String(k));
    }
  }
  const str = (v) => (v === null || v === undefined) ? '' : String(v);
  // A name inside a folder: not empty, not hidden or `..`, no separator, scheme or query.
  const plainSegment = (n) => typeof n === 'string' && n.length > 0 && !n.startsWith('.') && !/[\\/:?#%\u0000-\u001f]/.test(n);
  // A file the trace names: a plain name in the trace's own folder, as a URL path.
  const plain = (name) => plainSegment(name);
  // The passing attempt's folder, relative: `..` segments first, then plain names. As a URL
  // path with '/' at the end, or null when it is anything else.
  function safeBase(p) {
    if (typeof p !== 'string') return null;
    const parts = p.split('/');
    if (parts.length && parts[parts.length - 1] === '') parts.pop();
    let up = true;
    for (const part of parts) {
      if (part === '..' && up) continue;
      up = false;
      if (!plainSegment(part)) return null;
    }
    return parts.map((x) => x === '..' ? x : encodeURIComponent(x)).join('/') + (parts.length ? '/' : '');
  }
  function fmt(s) {
    if (typeof s !== 'number' || !isFinite(s)) return '';
    return s < 1 ? Math.round(s * 1000) + ' ms' : s.toFixed(2) + ' s';
  }
  const label = (s) => str(s.name) + (s.target ? ' ' + str(s.target) : '');
  const where = (s) => s.file ? str(s.file).split('/').pop() + (s.line ? ':' + s.line : '') : '';

  let D;
  try { D = JSON.parse($('trace-data').textContent); } catch (e) { document.body.setAttribute('data-error', 'bad data: ' + e); return; }
  const T = D.trace || { steps: [] };
  const steps = Array.isArray(T.steps) ? T.steps : [];
  const P = D.passing && Array.isArray(D.passing.steps) ? D.passing : null;
  const passingBase = P ? safeBase(D.passingBase) : null;
  const href = (base, name) => base + encodeURIComponent(name);
  const div = T.firstDivergence && typeof T.firstDivergence === 'object' ? T.firstDivergence : null;
  const failedAt = steps.findIndex((s) => s.outcome === 'failed');

  if (typeof D.report === 'string' && /^(\.\.\/)+index\.html(#.*)?$/.test(D.report)) $('back').setAttribute('href', D.report);
  else $('back').hidden = true;
  $('title').textContent = str(T.test);
  $('sub').textContent = 'attempt ' + str(T.attempt) + ' · ' + steps.length + (steps.length === 1 ? ' step' : ' steps') +
    (failedAt >= 0 ? ' · failed at step ' + (failedAt + 1) : '');
  if (div) {
    const b = $('divergence');
    b.hidden = false;
    const jump = h('a', { href: '#step=' + (Number(div.step) + 1), id: 'divergence-link' }, 'step ' + (Number(div.step) + 1));
    b.append('Parted from attempt ' + str(div.passingAttempt) + ' at ', jump, ': ' + str(div.reason));
  }

  const total = steps.reduce((m, s) => Math.max(m, (Number(s.start) || 0) + (Number(s.duration) || 0)), 0) || 1;
  const list = $('steps');
  steps.forEach((s, i) => {
    const diverged = div && Number(div.step) === i;
    const li = h('li', {
      id: 'step-' + (i + 1), role: 'option', 'data-step': String(i + 1), 'aria-selected': 'false',
      class: [s.outcome === 'failed' ? 'failed' : '', diverged ? 'diverged' : ''].join(' ').trim() || null,
    },
    h('span', { class: 'num' }, String(i + 1)),
    h('span', { class: 'label mono' }, label(s),
      s.outcome === 'failed' ? h('span', { class: 'mark failed' }, 'failed') : null,
      diverged ? h('span', { class: 'mark diverged' }, 'parted here') : null),
    h('span', { class: 'dur' }, fmt(s.duration)),
    s.group ? h('span', { class: 'group' }, str(s.group)) : null,
    h('span', { class: 'bar', style: 'margin-left:' + ((Number(s.start) || 0) / total * 100).toFixed(2) + '%;width:' + Math.max(0.5, (Number(s.duration) || 0) / total * 100).toFixed(2) + '%' }));
    li.addEventListener('click', () => select(i, true));
    list.append(li);
  });
  list.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'j') { e.preventDefault(); select(Math.min(steps.length - 1, current + 1), true); }
    if (e.key === 'ArrowUp' || e.key === 'k') { e.preventDefault(); select(Math.max(0, current - 1), true); }
  });

  function visualEl(v, base, n) {
    if (!v || typeof v !== 'object') return null;
    const src = {};
    for (const role of ['expected', 'actual', 'diff']) if (plain(v[role])) src[role] = href(base, v[role]);
    const count = Number(v.differingPixels), total = Number(v.totalPixels);
    const what = v.kind === 'missing' ? 'no baseline: the actual image was recorded'
      : v.kind === 'size' ? 'its size changed' : count + ' pixels differ' + (total > 0 ? ' (' + (count / total * 100).toFixed(2) + ' %)' : '');
    return h('div', { class: 'snapshot', 'data-snapshot': str(v.name), 'data-kind': str(v.kind) },
      h('h3', null, 'Snapshot “' + str(v.name) + '”: ' + what),
      snapshotCompareEl(h, src, 'step ' + n, false),
      h('p', { class: 'mono' }, 'Baseline: ' + str(v.baseline)),
      v.command ? h('p', null, 'Accept the actual images: ', h('code', { class: 'accept-command' }, str(v.command))) : null);
  }

  function sideEl(s, base, title, n) {
    if (!s) return h('div', { class: 'side' }, h('h3', null, title), h('p', { class: 'none' }, 'No such step.'));
    const parts = [h('h3', null, title), visualEl(s.visual, base, n)];
    if (plain(s.screenshot)) {
      const src = href(base, s.screenshot);
      const img = h('img', { class: 'shot', src, alt: 'Screenshot after step ' + n, 'data-kind': 'screenshot' });
      img.addEventListener('error', () => img.replaceWith(h('p', { class: 'none' }, 'Screenshot not found: ' + s.screenshot)), { once: true });
      parts.push(h('a', { href: src, target: '_blank', rel: 'noopener noreferrer' }, img));
    } else parts.push(h('p', { class: 'none' }, 'No screenshot of this step (on-failure takes one at the failing step; --trace always at every step).'));
    if (plain(s.snapshot)) {
      // sandbox with no allow-* token: no script, no form, no navigation of this page.
      parts.push(h('h3', null, 'DOM snapshot'), h('iframe', { class: 'snapshot', sandbox: '', src: href(base, s.snapshot), title: 'DOM after step ' + n, referrerpolicy: 'no-referrer' }));
    } else parts.push(h('p', { class: 'none' }, 'No DOM snapshot.'));
    const reqs = Array.isArray(s.requests) ? s.requests : [];
    parts.push(h('h3', null, 'Mock requests (' + reqs.length + ')'), reqs.length
      ? h('table', { class: 'requests' }, h('tbody', null, reqs.map((r) => h('tr', { class: Number(r.status) >= 400 || !r.route ? 'bad' : null },
        h('td', { class: 'mono' }, str(r.method) + ' ' + str(r.path)), h('td', null, str(r.status)), h('td', { class: 'mono' }, r.route ? str(r.route) : 'no route matched')))))
      : h('p', { class: 'none' }, 'none'));
    const con = Array.isArray(s.console) ? s.console : [];
    parts.push(h('h3', null, 'Console (' + con.length + ')'), con.length
      ? h('pre', { class: 'console' }, con.map((c) => '[' + str(c.level) + '] ' + str(c.message)).join('\n'))
      : h('p', { class: 'none' }, 'none'));
    return h('div', { class: 'side' }, parts);
  }

  let current = -1;
  function select(i, push) {
    if (i < 0 || i >= steps.length) return;
    if (current >= 0) $('step-' + (current + 1)).setAttribute('aria-selected', 'false');
    current = i;
    const li = $('step-' + (i + 1));
    li.setAttribute('aria-selected', 'true');
    li.scrollIntoView({ block: 'nearest' });
    const s = steps[i];
    const head = [
      h('h2', null, 'Step ' + (i + 1) + ': ', h('span', { class: 'mono' }, label(s))),
      h('div', { class: 'where' }, [str(s.group), where(s), 'at +' + fmt(s.start), 'took ' + fmt(s.duration), str(s.outcome)].filter(Boolean).join(' · ')),
      Array.isArray(s.arguments) && s.arguments.length ? h('div', { class: 'mono' }, 'arguments: ' + s.arguments.map(str).join(', ')) : null,
      s.error ? h('pre', { class: 'error' }, str(s.error)) : null,
    ];
    let sides;
    if (P && passingBase !== null && div) {
      // The passing attempt's step at the same distance from where the two parted.
      const j = Number(div.passingStep) + (i - Number(div.step));
      sides = h('div', { class: 'sides' }, sideEl(s, '', 'This attempt (' + str(T.attempt) + ')', i + 1),
        sideEl(P.steps[j], passingBase, 'Attempt ' + str(div.passingAttempt) + ' (passed), step ' + (j + 1), j + 1));
    } else sides = h('div', { class: 'sides' }, sideEl(s, '', 'After this step', i + 1));
    $('step').replaceChildren(...head.filter(Boolean), sides);
    $('step').setAttribute('data-step', String(i + 1));
    if (push) history.replaceState(null, '', '#step=' + (i + 1));
  }
  function fromHash() {
    const m = /step=(\d+)/.exec(location.hash);
    if (m) return Number(m[1]) - 1;
    if (div) return Number(div.step);
    if (failedAt >= 0) return failedAt;
    return steps.length - 1;
  }
  window.addEventListener('hashchange', () => select(fromHash(), false));
  if (steps.length) select(fromHash(), false);
  else $('step').replaceChildren(h('p', { class: 'none' }, 'This attempt recorded no UI step.'));
  document.body.setAttribute('data-ready', 'true');
})();
