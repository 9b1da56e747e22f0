// robotci report: draws the run embedded in #robotci-data. No framework, no network.
// Every string from tests reaches the page through textContent or an attribute value,
// never as markup (no innerHTML anywhere).
(() => {
  'use strict';
  const T0 = performance.now();
  const ROW_H = 28;
  const LABEL = { passed: 'passed', failed: 'failed', flaky: 'flaky', skipped: 'skipped', timedOut: 'timed out', crashed: 'crashed', quarantined: 'quarantined', notRun: 'not run' };
  const FAILING = { failed: true, timedOut: true, crashed: true, notRun: true };

  const $ = (id) => document.getElementById(id);

  // Elements are built only with createElement/textContent/setAttribute.
  function h(tag, props, ...kids) {
    const el = document.createElement(tag);
    if (props) {
      for (const k of Object.keys(props)) {
        const v = props[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === 'class') el.className = v;
        else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
    add(el, kids);
    return el;
  }
  function add(el, kids) {
    for (const kid of kids) {
      if (kid === null || kid === undefined || kid === false) continue;
      if (Array.isArray(kid)) add(el, kid);
      else if (typeof kid === 'object') el.appendChild(kid);
      else el.appendChild(document.createTextNode(String(kid)));
    }
  }
  // Artifact paths are report-relative; anything with a scheme or leading slash is refused.
  function safeHref(p) {
    if (typeof p !== 'string' || p === '' || /^[a-z][a-z0-9+.-]*:/i.test(p) || /^[\\/]/.test(p) || /(^|\/)\.\.(\/|$)/.test(p)) return null;
    return p;
  }
  function fmt(ms) {
    if (!(ms >= 0)) return '–';
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
    const s = Math.round(ms / 1000);
    if (s < 3600) return Math.floor(s / 60) + 'm ' + String(s % 60).padStart(2, '0') + 's';
    return Math.floor(s / 3600) + 'h ' + String(Math.floor(s / 60) % 60).padStart(2, '0') + 'm';
  }
  const firstLine = (s) => { const i = s.indexOf('\n'); return i < 0 ? s : s.slice(0, i); };
  const statusEl = (o) => h('span', { class: 'status o-' + o }, h('span', { class: 'dot', 'aria-hidden': 'true' }), LABEL[o] || o);
  const str = (v) => (v === null || v === undefined) ? '' : (typeof v === 'object' ? JSON.stringify(v) : String(v));

  // ---------- data
  const D = JSON.parse($('robotci-data').textContent);
  const META = D.meta;
  const MACH = D.machines;
  // Rows are arrays whose columns the data names (D.columns, from ReportColumns.swift). Each
  // index is found by name once, here: a column the data lacks stops the page with its name
  // instead of drawing a wrong cell. A row may end early; its missing cells are empty.
  function columns(table, names) {
    const have = (D.columns || {})[table] || [];
    const ix = {};
    for (const n of names) {
      ix[n] = have.indexOf(n);
      if (ix[n] < 0) throw new Error('report data: no column ' + table + '.' + n);
    }
    return ix;
  }
  const TC = columns('test', ['classIndex', 'name', 'outcome', 'flags', 'attempts', 'id', 'reason', 'browser']);
  const AC = columns('attempt', ['outcome', 'durationMs', 'startMs', 'shard', 'batch', 'machine', 'failures', 'failuresLeftOut', 'output', 'outputCut', 'artifacts']);
  const FC = columns('failure', ['file', 'line', 'message', 'bytesCut']);
  const XC = columns('artifact', ['kind', 'dir', 'name', 'linkable', 'inline', 'cut']);
  const BC = columns('batch', ['id', 'shard', 'machine', 'startMs', 'endMs', 'testCount', 'termination', 'clean']);
  const DC = columns('dir', ['parent', 'name']);
  const CC = columns('concurrency', ['ms', 'running']);
  const RC = columns('historyRun', ['id', 'startedMs', 'commit', 'passed', 'failing', 'flaky']);
  const HC = columns('historyTest', ['letters', 'durations']);
  const PASSED = D.attemptOutcomes.indexOf('passed');
  const attemptOf = (a) => ({
    o: D.attemptOutcomes[a[AC.outcome]], dur: a[AC.durationMs], start: a[AC.startMs], shard: a[AC.shard], batch: a[AC.batch],
    machine: a[AC.machine] >= 0 ? MACH[a[AC.machine]] : null, failures: a[AC.failures] || [], failuresLeft: a[AC.failuresLeftOut] || 0,
    output: a[AC.output] || '', outputCut: a[AC.outputCut] || 0, artifacts: (a[AC.artifacts] || []).map(artifactOf),
  });
  // Artifact paths come as a folder and a file name, folders interned as a trie (`dirs`).
  const dirPaths = [];
  function dirPath(i) {
    if (i < 0) return '';
    if (dirPaths[i] === undefined) dirPaths[i] = dirPath(D.dirs[i][DC.parent]) + D.dirs[i][DC.name] + '/';
    return dirPaths[i];
  }
  // How a linked file may be opened, by its name alone (never by the kind results.json
  // claims): images and plain text cannot run script and open in a tab; anything else (svg,
  // html, xhtml, xml, unknown) downloads, because opened it would run outside this page's CSP.
  function openingOf(name) {
    if (/\.(png|jpe?g|gif|webp)$/i.test(name)) return 'image';
    if (/\.(txt|log|json)$/i.test(name)) return 'text';
    return 'download';
  }
  function artifactOf(x) {
    const name = D.names[x[XC.name]];
    const path = dirPath(x[XC.dir]) + name;
    return { kind: D.kinds[x[XC.kind]], path, name, opening: openingOf(name), href: x[XC.linkable] ? safeHref(path.split('/').map(encodeURIComponent).join('/')) : null, inlined: x.length > XC.inline, value: x[XC.inline], cut: x[XC.cut] || 0 };
  }
  // A link to an artifact file: a new tab for inert types, a download for the rest. From
  // file:// Chromium ignores `download` (file URLs count as cross-origin) and would open the
  // file, whose script then shares every file:// page's storage: there it gets no link.
  const fromDisk = location.protocol === 'file:';
  function fileLink(x, label) {
    if (!x.href) return null;
    if (x.opening !== 'download') return h('a', { href: x.href, target: '_blank', rel: 'noopener noreferrer', 'data-opening': x.opening, title: x.path }, label);
    if (fromDisk) return h('span', { class: 'nolink', 'data-opening': 'download', title: 'Not opened from a report on disk: it could run script. It is in the report folder.' }, label, ' (', x.path, ')');
    return h('a', { href: x.href, download: x.name, 'data-opening': 'download', title: x.path + ' (downloaded: it is not shown in the browser)' }, label);
  }
  const shardKey = (m, w) => (m >= 0 ? MACH[m] + '#' : '') + w;
  const shardLabel = (m, w) => (m >= 0 ? MACH[m] + ' · ' : '') + 'shard ' + w;

  const tests = D.tests.map((r, i) => {
    const cls = D.classes[r[TC.classIndex]];
    const at = r[TC.attempts];
    const flags = r[TC.flags];
    let rep = 0; let total = 0; let lastPass = -1;
    for (let k = 0; k < at.length; k++) { total += at[k][AC.durationMs]; if (at[k][AC.outcome] === PASSED) lastPass = k; }
    if (at.length) rep = at[lastPass >= 0 ? lastPass : at.length - 1][AC.durationMs];
    return { i, cls, name: r[TC.name], id: (flags & 2) ? r[TC.id] : cls + '/' + r[TC.name], outcome: D.outcomes[r[TC.outcome]], quarantined: !!(flags & 1), reason: (flags & 4) ? r[TC.reason] : null, browser: r[TC.browser] || null, at, dur: rep, total, hay: null };
  });
  const byID = new Map(tests.map((t) => [t.id, t]));
  // robotci's word on a test beyond its attempts (the flake ledger's likely flake, a
  // quarantine entry's owner): [test index, kind, text] rows.
  const NOTES = new Map();
  for (const [i, kind, text] of (D.notes || [])) { if (!NOTES.has(i)) NOTES.set(i, []); NOTES.get(i).push({ kind, text }); }
  const notesOf = (t) => NOTES.get(t.i) || [];

  // ---------- browsers (--browsers): each engine's run of a test is a test; a row shows every
  // engine's verdict of its test. The default engine's runs name no browser: Chromium.
  const DEFAULT_ENGINE = 'chromium';
  const engineOf = (t) => t.browser || DEFAULT_ENGINE;
  const ENGINES = [...new Set(tests.map(engineOf))].sort((a, b) => (a === DEFAULT_ENGINE ? -1 : b === DEFAULT_ENGINE ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const MATRIX = ENGINES.length > 1 || tests.some((t) => t.browser);
  const siblings = new Map();
  if (MATRIX) {
    for (const t of tests) {
      const suffix = t.browser ? ' [' + t.browser + ']' : '';
      const key = t.cls + '\u0000' + (suffix && t.name.endsWith(suffix) ? t.name.slice(0, -suffix.length) : t.name);
      if (!siblings.has(key)) siblings.set(key, []);
      siblings.get(key).push(t);
      t.engines = siblings.get(key);
    }
    for (const list of siblings.values()) list.sort((a, b) => ENGINES.indexOf(engineOf(a)) - ENGINES.indexOf(engineOf(b)));
  }
  // One small verdict per engine that ran the test, in the engines' order.
  const enginesEl = (t) => (t.engines ? h('span', { class: 'meta engines' }, ...t.engines.map((e) => h('span', { class: 'engine o-' + e.outcome + (e === t ? ' self' : ''), 'data-engine': engineOf(e), 'data-outcome': e.outcome, title: engineOf(e) + ': ' + (LABEL[e.outcome] || e.outcome) }, h('span', { class: 'dot', 'aria-hidden': 'true' }), engineOf(e)))) : null);

  // ---------- history (history.json of the last runs): per test [letters, durations] packed, aligned with D.tests
  const HIST = D.history || null;
  // Letter -> outcome (Outcome.letter in Swift); any other letter (`-`) means the test did not run.
  const HL = D.letters;
  const ran = (c) => HL[c] !== undefined && HL[c] !== 'skipped';
  const HBAD = {};
  for (const c of Object.keys(HL)) if (FAILING[HL[c]]) HBAD[c] = true;
  const QUARANTINE_RATE = 0.2; const QUARANTINE_RUNS = 5;
  // A test's history comes packed (ReportColumns.HistoryTest): letters run-length coded
  // ('P28K2': a letter, then how often when more than once), durations as the change from
  // the test's previous duration, zigzag, base 32 ('a'-'v' and digits end a number, the
  // continuation characters carry its higher digits), '_' where the test did not run.
  function lettersOf(packed) {
    let out = '';
    for (let i = 0; i < packed.length;) {
      const c = packed[i++]; let n = 0;
      while (i < packed.length && packed[i] >= '0' && packed[i] <= '9') n = n * 10 + (packed.charCodeAt(i++) - 48);
      out += c.repeat(n || 1);
    }
    return out;
  }
  const END = '0123456789abcdefghijklmnopqrstuv'; const MORE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ*+-./:';
  const DIGIT = {};
  for (let v = 0; v < 32; v++) { DIGIT[END[v]] = v; DIGIT[MORE[v]] = 32 + v; }
  function durationsOf(packed) {
    const out = []; let prev = 0; let z = 0;
    for (const c of packed) {
      if (c === '_') { out.push(-1); continue; }
      const v = DIGIT[c];
      z = z * 32 + (v % 32);
      if (v < 32) { prev += (z % 2) ? -(z + 1) / 2 : z / 2; out.push(prev); z = 0; }
    }
    return out;
  }
  function histOf(t) {
    if (!HIST) return null;
    const e = HIST.tests[t.i];
    if (!e) return null;
    if (t.hist === undefined) {
      const o = lettersOf(e[HC.letters]); let runs = 0; let flaky = 0;
      for (const c of o) if (ran(c)) { runs++; if (HL[c] === 'flaky') flaky++; }
      const cur = HIST.current >= 0 ? HIST.current : o.length - 1;
      let prev = null;
      for (let k = cur - 1; k >= 0; k--) if (ran(o[k])) { prev = o[k]; break; }
      const now = o[cur];
      const mark = prev === null ? '' : (HBAD[now] && !HBAD[prev] ? 'new' : (!HBAD[now] && HL[now] !== undefined && HBAD[prev] ? 'fixed' : ''));
      t.hist = { o, d: durationsOf(e[HC.durations]), ran: runs, flaky, rate: runs ? flaky / runs : 0, mark };
    }
    return t.hist;
  }
  function stripEl(hs, big) {
    const el = h('span', { class: 'strip' + (big ? ' big' : ''), 'aria-label': 'last runs: ' + [...hs.o].map((c) => LABEL[HL[c]] || 'not run').join(', ') });
    for (let k = 0; k < hs.o.length; k++) {
      const c = hs.o[k];
      el.appendChild(h('i', { class: HL[c] === undefined ? 'none' : 'o-' + HL[c], title: big ? 'run ' + HIST.runs[k][RC.id] + ': ' + (LABEL[HL[c]] || 'not run') + (hs.d[k] >= 0 ? ' · ' + fmt(hs.d[k]) : '') : null }));
    }
    return el;
  }
  const rateText = (hs) => Math.round(hs.rate * 100) + '% flaky (' + hs.flaky + '/' + hs.ran + ')';
  // Duration per run as small bars (CSS only; nothing outside the page).
  function trendEl(hs) {
    const known = hs.d.filter((ms) => ms >= 0);
    if (known.length < 2) return null;
    const max = Math.max(1, ...known);
    const el = h('div', { class: 'trend', role: 'img', 'aria-label': 'duration per run, up to ' + fmt(max) });
    hs.d.forEach((ms, k) => {
      const bar = h('i', { class: ms >= 0 ? 'o-' + HL[hs.o[k]] : 'none', title: 'run ' + HIST.runs[k][RC.id] + ': ' + (ms >= 0 ? fmt(ms) : 'not run') });
      bar.style.height = (ms >= 0 ? Math.max(2, ms / max * 100) : 0) + '%';
      el.appendChild(bar);
    });
    return h('div', { class: 'trend-box' }, h('span', { class: 'n' }, 'duration per run (max ' + fmt(max) + ')'), el);
  }
  function suggestions() {
    const out = [];
    for (const t of tests) {
      const hs = histOf(t);
      if (hs && !t.quarantined && hs.ran >= QUARANTINE_RUNS && hs.flaky > 0 && hs.rate >= QUARANTINE_RATE) out.push(t);
    }
    return out.sort((a, b) => b.hist.rate - a.hist.rate || collator.compare(a.id, b.id));
  }
  const reEscape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const counts = {};
  for (const o of D.outcomes) counts[o] = 0;
  for (const t of tests) counts[t.outcome]++;

  // Text the search box looks in: the ID and each attempt's failure messages.
  function hay(t) {
    if (t.hay === null) {
      let s = t.id;
      for (const a of t.at) for (const f of (a[AC.failures] || [])) s += '\n' + f[FC.message].slice(0, 400);
      t.hay = s.toLowerCase();
    }
    return t.hay;
  }

  // ---------- state in the URL hash: #view=…&status=a,b&q=…&shard=…&sort=…&test=…
  // A run with failures or flaky tests opens with them first.
  const DEFAULT_SORT = (counts.failed + counts.timedOut + counts.crashed + counts.notRun + counts.flaky) ? 'status' : 'name';
  const RANK = { failed: 0, timedOut: 0, crashed: 0, notRun: 0, flaky: 1 };
  const rank = (t) => (t.outcome in RANK ? RANK[t.outcome] : 2);
  const RANK_LABEL = ['failing', 'flaky', ''];
  const state = { view: 'tests', status: [], q: '', shard: '', browser: '', sort: DEFAULT_SORT, test: '' };
  let pushedDetail = false;
  function readHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    const v = p.get('view');
    state.view = ['tests', 'timeline', 'slowest', 'flaky'].includes(v) ? v : 'tests';
    state.status = (p.get('status') || '').split(',').filter((s) => s in counts);
    state.q = p.get('q') || '';
    state.shard = p.get('shard') || p.get('worker') || '';
    state.browser = ENGINES.includes(p.get('browser')) ? p.get('browser') : '';
    const sort = p.get('sort');
    state.sort = ['name', 'duration', 'status'].includes(sort) ? sort : DEFAULT_SORT;
    state.test = p.get('test') || '';
  }
  function hashOf(s) {
    const p = new URLSearchParams();
    if (s.view !== 'tests') p.set('view', s.view);
    if (s.status.length) p.set('status', s.status.join(','));
    if (s.q) p.set('q', s.q);
    if (s.shard) p.set('shard', s.shard);
    if (s.browser) p.set('browser', s.browser);
    if (s.sort !== DEFAULT_SORT) p.set('sort', s.sort);
    if (s.test) p.set('test', s.test);
    return '#' + p.toString();
  }
  const hashForTest = (t) => hashOf(Object.assign({}, state, { test: t.id }));
  function commit(push) {
    const hash = hashOf(state);
    if (push) { if (location.hash !== hash) { location.hash = hash; return; } }
    else history.replaceState(null, '', hash);
    apply();
  }

  // ---------- summary
  function drawSummary() {
    const c = META.counts;
    const failing = counts.failed + counts.timedOut + counts.crashed + counts.notRun;
    const verdict = $('verdict');
    if (counts.notRun) { verdict.textContent = counts.notRun + (counts.notRun === 1 ? ' planned test did not run' : ' planned tests did not run') + (failing > counts.notRun ? ', ' + (failing - counts.notRun) + ' failing' : ''); verdict.classList.add('bad'); }
    else if (failing) { verdict.textContent = failing + (failing === 1 ? ' test failing' : ' tests failing'); verdict.classList.add('bad'); }
    else { verdict.textContent = 'All ' + tests.length + ' tests passed' + (counts.flaky ? ' (' + counts.flaky + ' flaky)' : ''); verdict.classList.add('good'); }
    $('title-run').textContent = 'run ' + META.runID;
    document.title = 'robotci · ' + verdict.textContent;
    $('interrupted').hidden = !META.interrupted;
    if (D.lean) {
      $('summary').before(h('p', { class: 'banner', id: 'lean' }, 'This run is too large to show everything in one small page: passing attempts are listed without their output and files. results.json beside this page has all of it.'));
    }

    const tiles = [h('div', { class: 'count' }, h('b', null, String(tests.length)), h('span', null, 'tests'))];
    for (const o of D.outcomes) {
      if (!counts[o] && !['passed', 'failed', 'flaky'].includes(o)) continue;
      const b = h('button', { type: 'button', class: 'count o-' + o + (counts[o] ? '' : ' zero'), 'data-outcome': o, title: 'Show ' + LABEL[o] + ' tests' },
        h('b', null, String(counts[o])), h('span', null, LABEL[o]));
      b.addEventListener('click', () => { Object.assign(state, { view: 'tests', status: [o], test: '' }); commit(true); });
      tiles.push(b);
    }
    $('counts').replaceChildren(...tiles);
    for (const o of D.outcomes) document.body.setAttribute('data-count-' + o.toLowerCase(), String(counts[o]));
    document.body.setAttribute('data-count-total', String(tests.length));
    if (c && c.total !== tests.length) document.body.setAttribute('data-count-mismatch', String(c.total));

    const facts = [];
    const fact = (k, v, opts) => { if (v !== null && v !== undefined && v !== '') facts.push(h('div', opts, h('dt', null, k), h('dd', { title: String(v) }, String(v)))); };
    const wall = META.wallTime; const serial = META.serialTime;
    fact('Wall time', fmt(wall));
    fact('Serial time', fmt(serial));
    fact('Speed-up', wall > 0 ? (serial / wall).toFixed(2) + '×' : '–');
    fact('Shard efficiency', Math.round(META.shardEfficiency * 100) + '%');
    fact('Shards', META.shards);
    fact('Retries', META.retries);
    fact('Run', META.runID);
    if (META.startedAt > 0) fact('Started', new Date(META.startedAt).toLocaleString());
    fact('Commit', META.gitCommit ? META.gitCommit.slice(0, 12) : null);
    fact('Branch', META.gitBranch);
    fact('Partition', META.partition);
    fact('Re-run of', META.rerunOf ? 'run ' + META.rerunOf + ' (--last-failed)' : null);
    fact('Stopped early', META.stoppedEarly);
    fact('Repetitions', META.repetitions);
    fact('Accounted for', META.accounting);
    fact('Machines', META.machines && META.machines.length ? META.machines.join(', ') : null);
    fact('Host', META.hostname);
    fact('robotci', META.version);
    if (META.commandLine && META.commandLine.length) fact('Command', META.commandLine.join(' '), { class: 'wide' });
    $('facts').replaceChildren(...facts);
    drawRunChart();
    $('flaky-count').textContent = counts.flaky ? String(counts.flaky) : '';
    if (HIST) document.body.setAttribute('data-history-runs', String(HIST.runs.length));
    $('foot').textContent = 'robotci ' + (META.version || '') + ' · ' + tests.length + ' tests · ' + D.batches.length + ' batches';
  }

  // Pass / fail / flaky of every run the history knows, as stacked CSS bars (newest right).
  function drawRunChart() {
    if (!HIST || HIST.runs.length < 2) return;
    const max = Math.max(1, ...HIST.runs.map((r) => r[RC.passed] + r[RC.failing] + r[RC.flaky]));
    const chart = h('div', { class: 'runchart', role: 'img', 'aria-label': 'passed, failing and flaky tests over the last ' + HIST.runs.length + ' runs' });
    HIST.runs.forEach((r, k) => {
      const col = h('div', { class: 'col' + (k === HIST.current ? ' current' : ''), title: 'run ' + r[RC.id] + (r[RC.startedMs] > 0 ? ' · ' + new Date(r[RC.startedMs]).toLocaleString() : '') + (r[RC.commit] ? ' · ' + r[RC.commit].slice(0, 12) : '') + ': ' + r[RC.passed] + ' passed, ' + r[RC.failing] + ' failing, ' + r[RC.flaky] + ' flaky' });
      for (const [n, cls] of [[r[RC.failing], 'o-failed'], [r[RC.flaky], 'o-flaky'], [r[RC.passed], 'o-passed']]) {
        if (n <= 0) continue;
        const part = h('i', { class: cls });
        part.style.height = (n / max * 100) + '%';
        col.appendChild(part);
      }
      chart.appendChild(col);
    });
    $('summary').appendChild(h('figure', { class: 'runs', id: 'run-chart', 'data-runs': HIST.runs.length }, h('figcaption', null, 'Last ' + HIST.runs.length + ' runs: passed, failing, flaky'), chart));
  }

  // ---------- filters + virtualised, grouped list
  const shardLanes = new Map();
  for (const b of D.batches) shardLanes.set(shardKey(b[BC.machine], b[BC.shard]), [b[BC.machine], b[BC.shard]]);
  for (const t of tests) for (const a of t.at) shardLanes.set(shardKey(a[AC.machine], a[AC.shard]), [a[AC.machine], a[AC.shard]]);
  const shardKeys = [...shardLanes.keys()].sort((x, y) => {
    const [ma, wa] = shardLanes.get(x); const [mb, wb] = shardLanes.get(y);
    return ma - mb || wa - wb;
  });
  const ranOn = (t, key) => t.at.some((a) => shardKey(a[AC.machine], a[AC.shard]) === key);

  function drawFilters() {
    const chips = [];
    for (const o of D.outcomes) {
      if (!counts[o]) continue;
      const b = h('button', { type: 'button', class: 'chip o-' + o, 'data-outcome': o, 'aria-pressed': 'false' },
        h('span', { class: 'dot', 'aria-hidden': 'true' }), LABEL[o], h('span', { class: 'n' }, String(counts[o])));
      b.addEventListener('click', () => {
        const s = new Set(state.status);
        if (s.has(o)) s.delete(o); else s.add(o);
        state.status = D.outcomes.filter((x) => s.has(x));
        commit(false);
      });
      chips.push(b);
    }
    $('chips').replaceChildren(...chips);
    const sel = $('shard');
    for (const k of shardKeys) sel.appendChild(h('option', { value: k }, shardLabel(...shardLanes.get(k))));
    let timer = 0;
    $('q').addEventListener('input', (e) => {
      clearTimeout(timer);
      timer = setTimeout(() => { state.q = e.target.value.trim(); commit(false); }, 120);
    });
    sel.addEventListener('change', () => { state.shard = sel.value; commit(false); });
    if (MATRIX) {
      const bsel = h('select', { id: 'browser' }, h('option', { value: '' }, 'all'), ...ENGINES.map((e) => h('option', { value: e }, e)));
      sel.closest('label').after(h('label', { class: 'field' }, 'Browser ', bsel));
      bsel.addEventListener('change', () => { state.browser = bsel.value; commit(false); });
    }
    $('sort').addEventListener('change', (e) => { state.sort = e.target.value; commit(false); });
    $('filters').addEventListener('submit', (e) => e.preventDefault());
  }

  function syncFilters() {
    for (const b of $('chips').children) b.setAttribute('aria-pressed', String(state.status.includes(b.getAttribute('data-outcome'))));
    if (document.activeElement !== $('q')) $('q').value = state.q;
    $('shard').value = shardLanes.has(state.shard) ? state.shard : '';
    if ($('browser')) $('browser').value = state.browser;
    $('sort').value = state.sort;
  }

  const collator = new Intl.Collator(undefined, { numeric: true });
  let rows = [];
  let rowsVersion = 0;
  let rowsKey = null;
  let active = -1;
  function computeRows() {
    const key = [state.status.join(','), state.q, state.shard, state.browser, state.sort].join('\u0000');
    if (key === rowsKey) return;
    rowsKey = key;
    const st = state.status.length ? new Set(state.status) : null;
    const terms = state.q.toLowerCase().split(/\s+/).filter(Boolean);
    const wk = shardLanes.has(state.shard) ? state.shard : '';
    const groups = new Map();
    let shown = 0;
    for (const t of tests) {
      if (st && !st.has(t.outcome)) continue;
      if (terms.length) { const s = hay(t); if (!terms.every((q) => s.includes(q))) continue; }
      if (wk && !ranOn(t, wk)) continue;
      if (state.browser && engineOf(t) !== state.browser) continue;
      // One group per class: under "failures first" it ranks by its worst test.
      const r = state.sort === 'status' ? rank(t) : 2;
      let g = groups.get(t.cls);
      if (!g) { g = { name: t.cls, rank: r, tests: [], dur: 0, failing: 0 }; groups.set(t.cls, g); }
      g.rank = Math.min(g.rank, r);
      g.tests.push(t); g.dur += t.dur; if (FAILING[t.outcome]) g.failing++;
      shown++;
    }
    const byName = (a, b) => collator.compare(a.name, b.name);
    const gs = [...groups.values()];
    if (state.sort === 'duration') {
      gs.sort((a, b) => b.dur - a.dur || byName(a, b));
      for (const g of gs) g.tests.sort((a, b) => b.dur - a.dur || byName(a, b));
    } else {
      // status: failing groups, then flaky, then the rest; by name within each.
      gs.sort((a, b) => a.rank - b.rank || byName(a, b));
      const byRank = state.sort === 'status' ? (a, b) => rank(a) - rank(b) || byName(a, b) : byName;
      for (const g of gs) g.tests.sort(byRank);
    }
    rows = [];
    rowsVersion++;
    for (const g of gs) { rows.push({ g }); for (const t of g.tests) rows.push({ t }); }
    active = -1;
    $('list').scrollTop = 0;
    $('shown').textContent = shown === tests.length ? tests.length + ' tests' : shown + ' of ' + tests.length + ' tests';
    $('list').setAttribute('data-visible-count', String(shown));
  }

  function rowEl(k) {
    const r = rows[k];
    if (r.g) {
      return h('div', { class: 'row group', role: 'presentation' },
        h('span', { class: 'name', title: r.g.name }, r.g.name, RANK_LABEL[r.g.rank] ? h('span', { class: 'rank-tag o-' + (r.g.rank ? 'flaky' : 'failed') }, RANK_LABEL[r.g.rank]) : null),
        h('span', { class: 'meta' }, r.g.tests.length + (r.g.tests.length === 1 ? ' test' : ' tests') + (r.g.failing ? ' · ' + r.g.failing + ' failing' : '')),
        h('span', { class: 'meta dur' }, fmt(r.g.dur)));
    }
    const t = r.t;
    const ws = [...new Set(t.at.map((a) => shardLabel(a[AC.machine], a[AC.shard]).replace('shard ', 's')))].join(', ');
    const hs = histOf(t);
    // A real link: a plain click opens the detail here, ctrl/middle click opens it in a new tab.
    return h('a', { class: 'row' + (k === active ? ' active' : ''), id: 'row-' + k, role: 'option', href: hashForTest(t), tabindex: '-1', 'aria-selected': String(k === active), 'data-k': k, 'data-test': t.id },
      statusEl(t.outcome),
      h('span', { class: 'name', title: t.id }, t.name),
      enginesEl(t),
      hs && hs.mark ? h('span', { class: 'mark ' + hs.mark }, hs.mark === 'new' ? 'newly failing' : 'fixed') : null,
      notesOf(t).some((n) => n.kind === 'likely-flaky') ? h('span', { class: 'mark likely-flaky', title: 'passed at this commit before' }, 'likely flaky') : null,
      hs ? stripEl(hs, false) : null,
      h('span', { class: 'meta rate' }, hs && hs.flaky ? Math.round(hs.rate * 100) + '%' : ''),
      h('span', { class: 'meta tries' }, t.at.length > 1 ? t.at.length + ' tries' : ''),
      h('span', { class: 'meta wk', title: ws }, ws),
      h('span', { class: 'meta dur' }, fmt(t.dur)));
  }

  let listFrame = 0;
  let drawnKey = '';
  let drawnVersion = -1;
  function drawList() {
    listFrame = 0;
    const list = $('list');
    $('list-spacer').style.height = Math.max(1, rows.length) * ROW_H + 'px';
    const top = list.scrollTop; const height = list.clientHeight || 800;
    const first = Math.max(0, Math.floor(top / ROW_H) - 8);
    const last = Math.min(rows.length, Math.ceil((top + height) / ROW_H) + 8);
    const box = $('list-rows');
    box.style.transform = 'translateY(' + first * ROW_H + 'px)';
    // Rows already drawn are kept (only their active mark changes): a node under the
    // mouse must survive between mousedown and click, or the click is lost.
    const key = rowsVersion + ':' + first + ':' + last;
    if (key === drawnKey) {
      for (const el of box.children) {
        const k = Number(el.getAttribute('data-k'));
        if (!el.hasAttribute('data-k')) continue;
        el.classList.toggle('active', k === active);
        el.setAttribute('aria-selected', String(k === active));
      }
    } else {
      const keep = new Map();
      for (const el of box.children) if (el.hasAttribute('data-k')) keep.set(Number(el.getAttribute('data-k')), el);
      const els = [];
      for (let k = first; k < last; k++) {
        let el = drawnVersion === rowsVersion ? keep.get(k) : undefined;
        if (el) { el.classList.toggle('active', k === active); el.setAttribute('aria-selected', String(k === active)); } else el = rowEl(k);
        els.push(el);
      }
      if (!rows.length) els.push(h('div', { class: 'row empty' }, 'No test matches this filter.'));
      box.replaceChildren(...els);
      drawnKey = key; drawnVersion = rowsVersion;
    }
    if (active >= 0) list.setAttribute('aria-activedescendant', 'row-' + active);
    else list.removeAttribute('aria-activedescendant');
  }
  const scheduleList = () => { if (!listFrame) listFrame = requestAnimationFrame(drawList); };

  function moveActive(delta) {
    if (!rows.length) return;
    let k = active < 0 ? (delta > 0 ? -1 : rows.length) : active;
    const step = delta > 0 ? 1 : -1;
    let moved = 0;
    for (let j = k + step; j >= 0 && j < rows.length; j += step) {
      if (rows[j].t) { k = j; moved += 1; if (moved >= Math.abs(delta)) break; }
    }
    if (k < 0 || k >= rows.length || !rows[k].t) return;
    active = k;
    const list = $('list');
    const y = k * ROW_H;
    if (y < list.scrollTop) list.scrollTop = y;
    else if (y + ROW_H > list.scrollTop + list.clientHeight) list.scrollTop = y + ROW_H - list.clientHeight;
    drawList();
  }

  function wireList() {
    const list = $('list');
    list.addEventListener('scroll', scheduleList, { passive: true });
    window.addEventListener('resize', scheduleList);
    $('list-rows').addEventListener('click', (e) => {
      const row = e.target.closest('.row[data-k]');
      if (!row || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return; // new tab/window: the link's own job
      e.preventDefault();
      active = Number(row.getAttribute('data-k'));
      openTest(rows[active].t);
    });
    // Focus from the mouse must not redraw the rows under it; from the keyboard, mark the first test.
    let pointer = false;
    list.addEventListener('mousedown', () => { pointer = true; setTimeout(() => { pointer = false; }, 0); });
    list.addEventListener('focus', () => { if (active < 0 && !pointer) moveActive(1); });
    list.addEventListener('keydown', (e) => {
      const page = Math.max(1, Math.floor(list.clientHeight / ROW_H) - 1);
      const keys = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -rows.length, End: rows.length, j: 1, k: -1 };
      if (e.key in keys) { e.preventDefault(); moveActive(keys[e.key]); }
      else if (e.key === 'Enter' && active >= 0 && rows[active].t) { e.preventDefault(); openTest(rows[active].t); }
    });
  }

  // ---------- test detail: every attempt side by side, failing attempts first
  let listScroll = 0;
  function openTest(t) {
    listScroll = $('list').scrollTop;
    state.test = t.id;
    pushedDetail = true;
    commit(true);
  }
  function closeTest() {
    if (pushedDetail) { pushedDetail = false; history.back(); return; }
    state.test = '';
    commit(false);
  }

  function drawDetail(t) {
    $('detail-title').textContent = t.id;
    const total = t.at.reduce((s, a) => s + a[AC.durationMs], 0);
    $('detail-sub').replaceChildren(statusEl(t.outcome), MATRIX ? ' · on ' + engineOf(t) : '', ' · ', t.at.length + (t.at.length === 1 ? ' attempt' : ' attempts'), ' · ', fmt(total), t.quarantined ? ' · quarantined' : '');
    const order = t.at.map(attemptOf).map((a, n) => Object.assign(a, { n: n + 1 }));
    order.sort((x, y) => (FAILING[y.o] ? 1 : 0) - (FAILING[x.o] ? 1 : 0) || x.n - y.n);
    const notRun = t.reason ? h('section', { class: 'not-run', 'data-reason': t.reason }, h('h3', null, 'Not run', statusEl('notRun')), h('pre', { class: 'msg' }, t.reason)) : null;
    // replaceChildren would write a null as the text "null".
    const notes = notesOf(t).map((n) => h('p', { class: 'note ' + n.kind, 'data-note': n.kind }, n.text));
    $('attempts').replaceChildren(...[historyEl(t), notRun, ...notes, ...order.map((a) => attemptEl(t, a))].filter(Boolean));
    for (const pre of $('attempts').querySelectorAll('pre.out')) pre.scrollTop = pre.scrollHeight;
    $('detail').setAttribute('data-test', t.id);
    $('detail').setAttribute('data-attempts', String(t.at.length));
  }

  // The test's last runs: strip, flake rate, new/fixed mark and its duration trend.
  function historyEl(t) {
    const hs = histOf(t);
    if (!hs) return null;
    return h('section', { class: 'history', 'aria-label': 'History', 'data-flake-rate': hs.rate.toFixed(2), 'data-history': hs.o },
      h('h3', null, 'Last ' + hs.o.length + ' runs', hs.mark ? h('span', { class: 'mark ' + hs.mark }, hs.mark === 'new' ? 'newly failing' : 'fixed') : null),
      h('div', { class: 'hist-row' }, stripEl(hs, true), h('span', { class: 'n' }, rateText(hs))),
      trendEl(hs));
  }

  function attemptEl(t, a) {
    const failing = !!FAILING[a.o];
    const parts = [
      h('h3', null, 'Attempt ' + a.n, statusEl(a.o), h('span', { class: 'n' }, fmt(a.dur))),
      h('div', { class: 'where' }, shardLabel(a.machine === null ? -1 : MACH.indexOf(a.machine), a.shard) + ' · batch ' + a.batch + ' · started at +' + fmt(a.start)),
    ];
    if (a.failures.length) {
      parts.push(h('h4', null, a.failures.length > 1 ? 'Failures' : 'Failure'));
      for (const f of a.failures) {
        const file = f[FC.file] >= 0 ? D.files[f[FC.file]] : null;
        parts.push(h('div', { class: 'failure' },
          h('pre', { class: 'msg' }, f[FC.message] + (f[FC.bytesCut] ? '…' : '')),
          f[FC.bytesCut] ? h('div', { class: 'cut' }, f[FC.bytesCut] + ' more bytes not shown') : null,
          file ? h('div', { class: 'loc' }, file + (f[FC.line] ? ':' + f[FC.line] : '')) : null));
      }
      if (a.failuresLeft) parts.push(h('div', { class: 'cut' }, a.failuresLeft + ' more failures not shown'));
    }
    const byKind = {};
    a.artifacts.forEach((x) => { (byKind[x.kind] = byKind[x.kind] || []).push(x); });
    // A failed accessibility audit's outlined screenshot goes with its issues, not with the failure's;
    // a failed snapshot's three images go with it.
    const auditShot = (x) => /^accessibility-audit(-\d+)?\.png$/i.test(x.name);
    const snapshotShot = (x) => /^snapshot-.*-(expected|actual|diff)\.png$/i.test(x.name);
    const snapshots = (byKind.snapshot || []).filter((x) => x.inlined && x.value && typeof x.value === 'object');
    if (snapshots.length) parts.push(snapshotsEl(t, a, snapshots, byKind.screenshot || []));
    for (const x of byKind.screenshot || []) {
      // Only a raster image is shown; a "screenshot" that is not one is listed with the files.
      if (!x.href || x.opening !== 'image' || auditShot(x) || snapshotShot(x)) continue;
      const img = h('img', { class: 'shot', src: x.href, alt: 'Screenshot of attempt ' + a.n, loading: 'lazy' });
      img.addEventListener('error', () => img.replaceWith(h('span', { class: 'cut' }, 'Screenshot not found: ' + x.path)), { once: true });
      parts.push(h('h4', null, 'Screenshot'), fileLink(x, img));
    }
    for (const x of byKind.audit || []) {
      const shot = (byKind.screenshot || []).find((y) => auditShot(y) && y.name.replace(/\.png$/i, '') === x.name.replace(/\.json$/i, ''));
      parts.push(auditEl(x, shot, a));
    }
    for (const x of byKind.trace || []) parts.push(traceEl(x, a));
    for (const x of byKind.steps || []) parts.push(stepsEl(x));
    for (const x of byKind.accessibility || []) parts.push(textArtifactEl('Accessibility tree', x, failing));
    for (const x of byKind.mock || []) parts.push(mockEl(x));
    for (const x of byKind.console || []) parts.push(textArtifactEl('Browser console', x, false));
    const log = (byKind.log || [])[0];
    if (a.output || a.outputCut) {
      parts.push(h('h4', null, 'Output'));
      if (a.outputCut) {
        const link = log ? fileLink(log, 'Full log') : null;
        parts.push(h('div', { class: 'cut' }, 'First ' + a.outputCut + ' bytes cut. ', link || 'The full output is in results.json.'));
      }
      parts.push(h('pre', { class: 'out' }, a.output));
    }
    const links = a.artifacts.filter((x) => !(x.kind === 'screenshot' && x.opening === 'image') && !x.inlined)
      .map((x) => fileLink(x, x.kind + ': ' + x.name))
      .filter(Boolean);
    if (links.length) parts.push(h('h4', null, 'Files'), h('div', { class: 'links' }, links));
    return h('article', { class: 'attempt o-' + a.o, 'data-outcome': a.o, 'aria-label': 'Attempt ' + a.n + ', ' + (LABEL[a.o] || a.o) }, parts);
  }

  // Failed snapshots (snapshot-*.json): per snapshot its expected, actual and diff images side by
  // side, or stacked with a slider between expected and actual; then the one command that
  // accepts every actual image of the test. A mismatch in a test that passed on a retry is a
  // flaky snapshot, and says so.
  function snapshotsEl(t, a, snapshots, images) {
    // A retry that passed against a baseline its first attempt recorded is no flake of the page.
    const flaky = t.outcome === 'flaky' && snapshots.some((x) => x.value.kind !== 'missing');
    const recordedThenPassed = t.outcome === 'flaky' && !flaky;
    const byName = {};
    for (const y of images) if (y.href && y.opening === 'image') byName[y.name] = y.href;
    const cards = snapshots.map((x) => {
      const v = x.value;
      const src = {};
      for (const role of ['expected', 'actual', 'diff']) if (typeof v[role] === 'string' && byName[v[role]]) src[role] = byName[v[role]];
      const n = Number(v.differingPixels), total = Number(v.totalPixels);
      const what = v.kind === 'missing' ? 'no baseline: the actual image was recorded as the baseline'
        : v.kind === 'size' ? 'size changed from ' + str(v.expectedSize && v.expectedSize.join('×')) + ' to ' + str(v.actualSize && v.actualSize.join('×'))
        : n + ' pixels differ' + (total > 0 ? ' (' + (n / total * 100).toFixed(2) + ' %)' : '');
      return h('div', { class: 'snapshot', 'data-snapshot': str(v.name), 'data-kind': str(v.kind) },
        h('h5', null, 'Snapshot “' + str(v.name) + '”: ' + what),
        snapshotCompareEl(h, src, 'attempt ' + a.n + ', snapshot ' + str(v.name), true),
        h('div', { class: 'cut mono' }, 'Baseline: ' + str(v.baseline)));
    });
    const command = snapshots.map((x) => str(x.value.command)).find(Boolean);
    return h('div', { class: 'snapshots', 'data-flaky': flaky ? 'true' : null },
      h('h4', null, snapshots.length === 1 ? 'Snapshot' : 'Snapshots (' + snapshots.length + ')'),
      flaky ? h('div', { class: 'flaky-snapshot' }, 'Flaky snapshot: this mismatch passed on a retry. The page does not render the same each time: something in it is not frozen (a clock, a random value, a late image).') : null,
      recordedThenPassed ? h('div', { class: 'cut' }, 'The retry passed against the baseline this attempt recorded: look at it and commit it.') : null,
      cards,
      command ? h('div', { class: 'accept' }, 'Accept the actual images: ', h('code', { class: 'accept-command' }, command)) : null);
  }

  // A failed accessibility audit (accessibility-audit.json): each issue's type and descriptions,
  // numbered as the outlines on its screenshot (accessibility-audit.png) are.
  function auditEl(x, shot, a) {
    if (!x.inlined || !Array.isArray(x.value)) return null;
    const rowsEls = x.value.map((issue, i) => {
      issue = (issue && typeof issue === 'object') ? issue : {};
      const el = (issue.element && typeof issue.element === 'object') ? issue.element : {};
      const who = str(el.type) + (el.identifier ? ' "' + str(el.identifier) + '"' : el.label ? ' labelled "' + str(el.label) + '"' : '');
      return h('tr', null,
        h('td', { class: 'num' }, String(i + 1 + x.cut)),
        h('td', { class: 'mono' }, str(issue.auditType)),
        h('td', { class: 'mono' }, who),
        h('td', null, h('strong', null, str(issue.compactDescription)), ' ', str(issue.detailedDescription)));
    });
    let img = null;
    if (shot && shot.href && shot.opening === 'image') {
      img = h('img', { class: 'shot', src: shot.href, alt: 'Accessibility audit of attempt ' + a.n + ', each issue outlined', loading: 'lazy' });
      img.addEventListener('error', () => img.replaceWith(h('span', { class: 'cut' }, 'Screenshot not found: ' + shot.path)), { once: true });
    }
    return h('div', { class: 'audit' },
      h('h4', null, 'Accessibility audit (' + (x.value.length + x.cut) + (x.value.length + x.cut === 1 ? ' issue)' : ' issues)')),
      x.cut ? h('div', { class: 'cut' }, 'First ' + x.cut + ' issues not shown.') : null,
      h('div', { class: 'tablewrap' }, h('table', { class: 'steps' },
        h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, 'Type'), h('th', null, 'Element'), h('th', null, 'Issue'))),
        h('tbody', null, rowsEls))),
      img ? fileLink(shot, img) : null);
  }

  function textArtifactEl(title, x, open) {
    if (!x.inlined) return null;
    return h('details', { open },
      h('summary', null, title + (x.cut ? ' (first part; ' + x.cut + ' bytes cut)' : '')),
      h('pre', { class: 'out' }, str(x.value)));
  }

  // The attempt's step trace: what it holds, where it failed and parted from a passing attempt,
  // and a link to its viewer (viewer.html beside trace.json, written by robotci).
  function traceEl(x, a) {
    if (!x.href) return null;
    const v = x.inlined && x.value && typeof x.value === 'object' ? x.value : null;
    const viewer = x.href.replace(/[^/]*$/, 'viewer.html');
    const open = (text) => h('a', { href: viewer, class: 'trace-link', 'data-attempt': String(a.n) }, text);
    if (!v) return h('div', { class: 'trace' }, h('h4', null, 'Step trace'), open('Open the step trace'));
    const d = v.divergence && typeof v.divergence === 'object' ? v.divergence : null;
    return h('div', { class: 'trace' },
      h('h4', null, 'Step trace (' + str(v.steps) + (Number(v.steps) === 1 ? ' step)' : ' steps)')),
      v.failedStep ? h('div', null, 'Failed at step ' + str(v.failedStep) + ': ', h('span', { class: 'mono' }, str(v.failedLabel))) : null,
      d ? h('div', { class: 'divergence' }, 'Parted from attempt ' + str(d.passingAttempt) + ' at step ' + str(d.step) + ': ' + str(d.reason)) : null,
      open(d ? 'Open the trace, side by side with attempt ' + str(d.passingAttempt) : 'Open the step trace'));
  }

  function stepsEl(x) {
    if (!x.inlined || !Array.isArray(x.value)) return null;
    const rowsEls = x.value.map((s, i) => {
      s = (s && typeof s === 'object') ? s : { message: str(s) };
      const bad = /fail|error/i.test(str(s.status));
      return h('tr', { class: bad ? 'bad' : null },
        h('td', { class: 'num' }, String(i + 1 + x.cut)),
        h('td', { class: 'mono' }, [str(s.robot), str(s.method)].filter(Boolean).join('.')),
        h('td', null, str(s.status)),
        h('td', { class: 'num' }, typeof s.duration === 'number' ? fmt(s.duration * 1000) : str(s.duration)),
        h('td', { class: 'mono' }, s.file ? str(s.file).split('/').pop() + (s.line ? ':' + s.line : '') : ''),
        h('td', null, str(s.message)));
    });
    return h('div', null,
      h('h4', null, 'Robot steps (' + (x.value.length + x.cut) + ')'),
      x.cut ? h('div', { class: 'cut' }, 'First ' + x.cut + ' steps not shown.') : null,
      h('div', { class: 'tablewrap' }, h('table', { class: 'steps' },
        h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, 'Step'), h('th', null, 'Status'), h('th', null, 'Time'), h('th', null, 'Where'), h('th', null, 'Message'))),
        h('tbody', null, rowsEls))));
  }

  function mockEl(x) {
    if (!x.inlined || !Array.isArray(x.value)) return null;
    const reqs = x.value.map((r) => {
      r = (r && typeof r === 'object') ? r : {};
      const q = r.query && typeof r.query === 'object' ? new URLSearchParams(r.query).toString() : str(r.query);
      // A CORS preflight the server answered itself: shown, marked, never in what tests count.
      const preflight = r.preflight === true;
      const unmatched = !r.matchedRoute && !preflight;
      const head = str(r.method) + ' ' + str(r.path) + (q ? '?' + q : '') + ' → ' + str(r.status) +
        (preflight ? '  [CORS preflight: answered by the mock, not in requests]' : unmatched ? '  (no route matched)' : '  (' + str(r.matchedRoute) + ')');
      const headers = r.headers && typeof r.headers === 'object'
        ? Object.keys(r.headers).map((k) => k + ': ' + str(r.headers[k])).join('\n') : str(r.headers);
      return h('details', { class: 'req' + (unmatched ? ' unmatched' : '') + (preflight ? ' preflight' : '') },
        h('summary', null, head),
        r.time !== undefined ? h('div', { class: 'cut' }, 'at ' + str(r.time)) : null,
        r.error ? h('div', { class: 'failure' }, h('pre', null, str(r.error))) : null,
        headers ? h('pre', { class: 'out' }, headers) : null,
        r.body ? h('pre', { class: 'out' }, str(r.body)) : null);
    });
    return h('div', null, h('h4', null, 'Mock requests (' + (x.value.length + x.cut) + ')'), reqs.length ? reqs : h('div', { class: 'cut' }, 'none'));
  }

  // ---------- timeline: one lane per shard (grouped by machine), batches and attempts as bars
  let tlScale = 0;
  let tlWall = 1;
  function drawTimeline() {
    const box = $('timeline');
    if (box.firstChild) return;
    const lanes = new Map();
    const lane = (m, w) => {
      const key = shardKey(m, w);
      let l = lanes.get(key);
      if (!l) { l = { m, w, batches: [], bars: [] }; lanes.set(key, l); }
      return l;
    };
    let end = META.wallTime;
    for (const b of D.batches) { lane(b[BC.machine], b[BC.shard]).batches.push(b); end = Math.max(end, b[BC.endMs]); }
    for (const t of tests) {
      t.at.forEach((a, n) => { lane(a[AC.machine], a[AC.shard]).bars.push([t, a, n]); end = Math.max(end, a[AC.startMs] + a[AC.durationMs]); });
    }
    tlWall = Math.max(1, end);
    const pct = (ms) => (ms / tlWall * 100) + '%';
    const sorted = [...lanes.values()].sort((a, b) => a.m - b.m || a.w - b.w);
    const inner = h('div', { class: 'tl-inner' }, h('div', { class: 'tl-axis', id: 'tl-axis' }));
    // How many batches ran at once (the adaptive concurrency), as a step strip above the lanes.
    const conc = META.concurrency;
    if (conc && conc.length > 1) {
      const top = Math.max(1, META.shards, ...conc.map((c) => c[CC.running]));
      const strip = h('div', { class: 'tl-track tl-conc' });
      let area = 0;
      conc.forEach((c, i) => {
        const at = c[CC.ms]; const running = c[CC.running];
        const until = i + 1 < conc.length ? conc[i + 1][CC.ms] : at;
        area += running * Math.max(0, until - at);
        if (!running || until <= at) return;
        const el = h('div', { class: 'tl-conc-step', title: running + ' running from ' + fmt(at) });
        el.style.left = pct(at); el.style.width = pct(until - at); el.style.height = (running / top * 100) + '%';
        strip.appendChild(el);
      });
      const span = conc[conc.length - 1][CC.ms] - conc[0][CC.ms];
      const mean = span > 0 ? area / span : 0;
      inner.appendChild(h('div', { class: 'tl-lane', 'data-concurrency': mean.toFixed(2) },
        h('span', { class: 'tl-label', title: 'batches running at once; at most ' + top + ' shards' }, 'running · ' + mean.toFixed(1) + ' avg'),
        strip));
    }
    let machine = null;
    for (const l of sorted) {
      if (MACH.length && l.m !== machine) { machine = l.m; inner.appendChild(h('div', { class: 'tl-machine' }, l.m >= 0 ? MACH[l.m] : 'unknown machine')); }
      const track = h('div', { class: 'tl-track' });
      for (const b of l.batches) {
        const el = h('div', { class: 'tl-batch' + (b[BC.clean] ? '' : ' bad'), title: 'batch ' + b[BC.id] + ' · ' + b[BC.testCount] + ' tests · ' + fmt(b[BC.endMs] - b[BC.startMs]) + ' · ' + b[BC.termination] });
        el.style.left = pct(b[BC.startMs]); el.style.width = pct(Math.max(0, b[BC.endMs] - b[BC.startMs]));
        track.appendChild(el);
      }
      for (const [t, a, n] of l.bars) {
        const o = D.attemptOutcomes[a[AC.outcome]];
        const el = h('div', { class: 'tl-bar o-' + o, 'data-t': t.i, tabindex: '0', role: 'button', title: t.id + ' — ' + fmt(a[AC.durationMs]) + ' · attempt ' + (n + 1) + ' ' + (LABEL[o] || o) });
        el.style.left = pct(a[AC.startMs]); el.style.width = pct(a[AC.durationMs]);
        track.appendChild(el);
      }
      const busy = l.batches.reduce((s, b) => s + Math.max(0, b[BC.endMs] - b[BC.startMs]), 0);
      inner.appendChild(h('div', { class: 'tl-lane', 'data-shard': shardKey(l.m, l.w) },
        h('span', { class: 'tl-label', title: 'busy ' + fmt(busy) + ' of ' + fmt(tlWall) }, 'shard ' + l.w + ' · ' + Math.round(busy / tlWall * 100) + '%'),
        track));
    }
    inner.addEventListener('click', (e) => {
      const bar = e.target.closest('.tl-bar');
      if (bar) openTest(tests[Number(bar.getAttribute('data-t'))]);
    });
    inner.addEventListener('keydown', (e) => {
      const bar = e.target.closest('.tl-bar');
      if (bar && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); openTest(tests[Number(bar.getAttribute('data-t'))]); }
    });
    box.appendChild(inner);
    box.setAttribute('data-lanes', String(sorted.length));
    const legend = ['passed', 'failed', 'skipped', 'timedOut', 'crashed'].map((o) => h('span', { class: 'o-' + o }, h('span', { class: 'dot' }), LABEL[o]));
    legend.push(h('span', null, 'hatched: idle'));
    $('legend').replaceChildren(...legend);
    zoom(0);
  }

  function zoom(factor) {
    const box = $('timeline');
    const fit = Math.max(100, box.clientWidth - 152) / tlWall;
    tlScale = factor === 0 || !tlScale ? fit : Math.max(fit, tlScale * factor);
    const width = tlWall * tlScale;
    box.firstChild.style.width = (150 + width) + 'px';
    // Ticks at a round step that leaves ~90px between labels.
    const steps = [100, 250, 500, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5];
    const step = steps.find((s) => s * tlScale >= 90) || steps[steps.length - 1];
    const ticks = [];
    for (let ms = 0; ms <= tlWall; ms += step) {
      const el = h('div', { class: 'tl-tick' }, fmt(ms));
      el.style.left = (ms * tlScale) + 'px';
      ticks.push(el);
    }
    $('tl-axis').replaceChildren(...ticks);
  }

  // ---------- slowest and flaky
  function drawSlowest() {
    const ol = $('slowest');
    if (ol.firstChild) return;
    const top = tests.slice().sort((a, b) => b.dur - a.dur).slice(0, 100);
    const max = top.length ? Math.max(1, top[0].dur) : 1;
    ol.replaceChildren(...top.map((t, k) => {
      const bar = h('span', { class: 'bar', 'aria-hidden': 'true' }, h('i'));
      bar.firstChild.style.width = (t.dur / max * 100) + '%';
      return h('li', null, h('span', { class: 'rank' }, String(k + 1)), statusEl(t.outcome),
        h('a', { href: hashForTest(t), title: t.id }, t.id), bar, h('span', { class: 'num' }, fmt(t.dur)));
    }));
    if (!top.length) ol.appendChild(h('li', null, 'No tests.'));
  }

  function drawFlaky() {
    const ol = $('flaky');
    if (ol.firstChild) return;
    const flaky = tests.filter((t) => t.outcome === 'flaky');
    ol.replaceChildren(...flaky.map((t) => {
      const seq = h('span', { class: 'seq' }, t.at.map((a, n) => { const o = D.attemptOutcomes[a[AC.outcome]]; return h('span', { class: 'dot o-' + o, title: 'attempt ' + (n + 1) + ': ' + (LABEL[o] || o) }); }));
      const f = t.at.map((a) => (a[AC.failures] || [])[0]).find(Boolean);
      return h('li', null, seq, h('a', { href: hashForTest(t), title: t.id }, t.id), h('span', { class: 'why', title: f ? f[FC.message] : '' }, f ? firstLine(f[FC.message]) : ''));
    }));
    if (!flaky.length) ol.appendChild(h('li', null, 'No flaky tests in this run.'));
    const sug = suggestions();
    if (sug.length) {
      const yaml = 'quarantine:\n' + sug.map((t) => "  - '" + ('^' + reEscape(t.id) + '$').replace(/'/g, "''") + "'").join('\n') + '\n';
      ol.after(h('section', { id: 'quarantine', class: 'quarantine', 'data-count': sug.length },
        h('h3', null, 'Suggested for quarantine'),
        h('p', null, 'Flaky in at least ' + Math.round(QUARANTINE_RATE * 100) + '% of at least ' + QUARANTINE_RUNS + ' recent runs. Paste into robotci.yml:'),
        h('ul', null, sug.map((t) => h('li', null, stripEl(t.hist, true), ' ', h('a', { href: hashForTest(t), title: t.id }, t.id), ' ', h('span', { class: 'n' }, rateText(t.hist))))),
        h('pre', { class: 'out yaml' }, yaml)));
    }
  }

  // Printing shows the summary and every test that did not simply pass, with its errors.
  function drawPrint() {
    const box = $('print');
    if (box.firstChild) return;
    const bad = tests.filter((t) => t.outcome !== 'passed' && t.outcome !== 'skipped').slice(0, 1000);
    box.appendChild(h('h2', null, bad.length ? 'Tests that did not pass' : 'Every test passed'));
    for (const t of bad) {
      const msgs = [];
      t.at.forEach((a, n) => (a[AC.failures] || []).forEach((f) => msgs.push('attempt ' + (n + 1) + ': ' + f[FC.message] + (f[FC.file] >= 0 ? '\n  at ' + D.files[f[FC.file]] + ':' + f[FC.line] : ''))));
      box.appendChild(h('div', { class: 'ptest' }, statusEl(t.outcome), ' ', h('b', { class: 'mono' }, t.id), msgs.length ? h('pre', null, msgs.join('\n')) : null));
    }
  }

  // ---------- views
  let showingDetail = false;
  function apply() {
    const t = state.test ? byID.get(state.test) : null;
    const leftDetail = showingDetail && !t;
    showingDetail = !!t;
    for (const a of document.querySelectorAll('.tabs a')) {
      if (a.getAttribute('data-view') === state.view) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    }
    for (const v of ['tests', 'timeline', 'slowest', 'flaky']) $('view-' + v).hidden = !!t || v !== state.view;
    $('detail').hidden = !t;
    if (t) {
      drawDetail(t);
      $('detail-back').setAttribute('href', hashOf(Object.assign({}, state, { test: '' })));
      $('detail-title').focus({ preventScroll: true });
      window.scrollTo(0, 0);
      return;
    }
    if (state.view === 'tests') {
      syncFilters();
      const before = rowsKey;
      computeRows();
      if (before === rowsKey && listScroll) { $('list').scrollTop = listScroll; listScroll = 0; }
      drawList();
      if (leftDetail) $('list').focus({ preventScroll: true });
    } else if (state.view === 'timeline') drawTimeline();
    else if (state.view === 'slowest') drawSlowest();
    else if (state.view === 'flaky') drawFlaky();
  }

  function wireViews() {
    for (const a of document.querySelectorAll('.tabs a')) {
      a.addEventListener('click', (e) => {
        e.preventDefault();
        state.view = a.getAttribute('data-view');
        state.test = '';
        pushedDetail = false;
        commit(true);
      });
    }
    $('detail-back').addEventListener('click', (e) => { e.preventDefault(); closeTest(); });
    $('zoom-in').addEventListener('click', () => zoom(2));
    $('zoom-out').addEventListener('click', () => zoom(0.5));
    $('zoom-fit').addEventListener('click', () => zoom(0));
    window.addEventListener('hashchange', () => { readHash(); if (!state.test) pushedDetail = false; apply(); });
    window.addEventListener('beforeprint', drawPrint);
    document.addEventListener('keydown', (e) => {
      const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement && document.activeElement.tagName);
      if (e.key === 'Escape' && state.test) { e.preventDefault(); closeTest(); }
      else if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey) { e.preventDefault(); if (state.test) closeTest(); $('q').focus(); }
    });
  }

  try {
    readHash();
    drawSummary();
    drawFilters();
    wireList();
    wireViews();
    apply();
    void document.body.offsetHeight; // include the first layout in the measure
    document.body.setAttribute('data-script-ms', (performance.now() - T0).toFixed(1));
    document.body.setAttribute('data-render-ms', performance.now().toFixed(1));
    document.body.setAttribute('data-ready', 'true');
  } catch (err) {
    document.body.setAttribute('data-error', String(err && err.message || err));
    document.body.insertBefore(h('p', { class: 'banner' }, 'The report could not be drawn: ' + String(err && err.stack || err)), document.body.firstChild);
  }
})();
