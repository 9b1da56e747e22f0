// A failed snapshot's comparison, the one both pages draw: the report in the attempt, the
// trace viewer in the failing step. web-report/embed appends this file to report.js and to
// trace.js (a function declaration: each page's script can call it from anywhere in it).
// Expected, actual and diff side by side, or expected under actual with a slider between.
// `h` is the page's element builder (text as textContent, never markup); `hint` adds the
// caption under the slider.
function snapshotCompareEl(h, src, what, hint) {
  const img = (role) => src[role] ? h('img', { class: 'snap-img', src: src[role], alt: role + ' image of ' + what, 'data-role': role }) : null;
  const side = h('div', { class: 'snap-side' }, ['expected', 'actual', 'diff'].filter((r) => src[r]).map((r) =>
    h('figure', null, h('figcaption', null, r === 'diff' ? 'diff (red: differs, yellow: anti-aliasing)' : r), img(r))));
  if (!src.expected || !src.actual) return side;
  const over = img('actual');
  const range = h('input', { type: 'range', min: '0', max: '100', value: '50', class: 'snap-range', 'aria-label': 'Expected on the left of the handle, actual on its right' });
  const clip = () => { over.style.clipPath = 'inset(0 0 0 ' + range.value + '%)'; };
  range.addEventListener('input', clip);
  clip();
  const slider = h('div', { class: 'snap-slider', hidden: true }, h('div', { class: 'snap-stack' }, img('expected'), over), range,
    hint ? h('div', { class: 'cut' }, '← expected · actual →') : null);
  const box = h('div', { class: 'snap-compare', 'data-mode': 'side' });
  const modes = { side: 'Side by side', slider: 'Slider' };
  const buttons = Object.keys(modes).map((m) => {
    const b = h('button', { type: 'button', class: 'snap-mode', 'data-mode': m, 'aria-pressed': m === 'side' ? 'true' : 'false' }, modes[m]);
    b.addEventListener('click', () => {
      box.setAttribute('data-mode', m);
      side.hidden = m !== 'side';
      slider.hidden = m !== 'slider';
      for (const o of buttons) o.setAttribute('aria-pressed', o === b ? 'true' : 'false');
    });
    return b;
  });
  box.append(h('div', { class: 'snap-modes', role: 'group', 'aria-label': 'Compare' }, buttons), side, slider);
  return box;
}
