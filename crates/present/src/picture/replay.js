// hexwar replay: steps through the positions hexwar computed. The page draws nothing of the
// rules: it moves the counters to where the data says and shows the narrative and dice.
(() => {
  'use strict';
  const D = JSON.parse(document.getElementById('data').textContent);
  const steps = D.steps;
  const layouts = D.layouts;
  const last = steps.length - 1;
  const $ = (id) => document.getElementById(id);
  const B = window.hexwarBoard(D.hex, D.puffs);
  const slider = $('slider');
  slider.max = String(last);

  // The narrative: one entry per step, the current one marked.
  const entries = steps.map((s, i) => {
    const div = document.createElement('div');
    div.className = s.t ? 'entry turn' : 'entry';
    for (const line of s.n) {
      const p = document.createElement('p');
      p.textContent = line;
      div.appendChild(p);
    }
    div.addEventListener('click', () => show(i));
    $('log').appendChild(div);
    return div;
  });

  let shownLayout = -1;
  const drawLayout = (k) => {
    if (k === shownLayout) return;
    B.drawLayout(layouts[k]);
    shownLayout = k;
  };

  let current = -1;
  const show = (i) => {
    i = Math.max(0, Math.min(last, i));
    if (current >= 0) entries[current].classList.remove('now');
    current = i;
    const s = steps[i];
    drawLayout(s.k);
    B.drawScene(s);
    B.drawDice(s);
    slider.value = String(i);
    $('step').textContent = `step ${i} of ${last}`;
    $('caption').textContent = s.c;
    entries[i].classList.add('now');
    entries[i].scrollIntoView({ block: 'nearest' });
    const result = $('result');
    result.hidden = !(i === last && D.result);
    if (!result.hidden) result.textContent = D.result;
    $('board').classList.toggle('night', Boolean(s.nt));
    document.body.dataset.step = String(i);
    try {
      window.history.replaceState(null, '', `#${i}`);
    } catch (_) {
      // Some browsers refuse history changes on file:// pages: the link is a nicety.
    }
  };
  const nextTurn = (dir) => {
    let i = current + dir;
    while (i > 0 && i < last && !steps[i].t) i += dir;
    show(i);
  };

  $('first').addEventListener('click', () => show(0));
  $('prev').addEventListener('click', () => show(current - 1));
  $('next').addEventListener('click', () => show(current + 1));
  $('turn').addEventListener('click', () => nextTurn(1));
  $('last').addEventListener('click', () => show(last));
  slider.addEventListener('input', () => show(Number(slider.value)));
  document.addEventListener('keydown', (e) => {
    if (e.target === slider && (e.key.startsWith('Arrow'))) e.preventDefault();
    const go = {
      ArrowRight: () => show(current + 1), ArrowDown: () => show(current + 1),
      ArrowLeft: () => show(current - 1), ArrowUp: () => show(current - 1),
      Home: () => show(0), End: () => show(last),
      PageDown: () => nextTurn(1), PageUp: () => nextTurn(-1),
    }[e.key];
    if (go) {
      e.preventDefault();
      go();
    }
  });
  // A step can be linked: page.html#120 opens at step 120.
  const linked = Number((window.location.hash || '').slice(1));
  show(Number.isInteger(linked) ? linked : 0);
  window.addEventListener('hashchange', () => {
    const n = Number(window.location.hash.slice(1));
    if (Number.isInteger(n) && n !== current) show(n);
  });
})();
