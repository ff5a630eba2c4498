// hexwar's board, drawn the same on the replay page and on the game page of `hexwar serve`:
// the counters moved to a layout's places, a step's scene (fire lines, arrows, paths, rings)
// and its dice. It knows nothing of the rules: hexwar computed every place and scene.
window.hexwarBoard = (hexSize, puffs) => {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const $ = (id) => document.getElementById(id);
  const units = new Map();
  document.querySelectorAll('#units .unit').forEach((g) => units.set(Number(g.id.slice(1)), g));
  const MARKS = ['w', 'd', 'p', 'g', 'b'];

  const svg = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };

  // A layout: per unit on the map its index, x, y (tenths), scale (thousandths) and marks;
  // then the smoke's hex centres.
  const drawLayout = (L) => {
    const seen = new Set();
    for (let j = 0; j < L.u.length; j += 5) {
      const g = units.get(L.u[j]);
      if (!g) continue;
      seen.add(L.u[j]);
      g.setAttribute('transform',
        `translate(${L.u[j + 1] / 10} ${L.u[j + 2] / 10}) scale(${L.u[j + 3] / 1000})`);
      const code = L.u[j + 4];
      g.setAttribute('class', ['unit', ...MARKS.filter((_, b) => code & (1 << b))].join(' '));
      const aboard = code >> 5;
      const a = g.querySelector('.m-a');
      if (a) a.textContent = aboard ? `+${aboard}` : '';
      g.removeAttribute('display');
    }
    units.forEach((g, id) => { if (!seen.has(id)) g.setAttribute('display', 'none'); });
    const drawn = [];
    for (const [x, y] of L.s) {
      for (const [dx, dy, r] of puffs) {
        drawn.push(svg('circle', { cx: x / 10 + dx, cy: y / 10 + dy, r }));
      }
    }
    $('smoke').replaceChildren(...drawn);
  };

  const drawScene = (s) => {
    const parts = [];
    for (const [x, y] of s.r || []) {
      parts.push(svg('circle', { cx: x / 10, cy: y / 10, r: hexSize * 0.8, fill: 'none',
        stroke: '#d4a017', 'stroke-width': 3, 'stroke-dasharray': '5 3' }));
    }
    for (const p of s.m || []) {
      const pts = [];
      for (let j = 0; j < p.length; j += 2) pts.push(`${p[j] / 10},${p[j + 1] / 10}`);
      parts.push(svg('polyline', { points: pts.join(' '), fill: 'none', stroke: '#1d3557',
        'stroke-width': 3, 'stroke-dasharray': '6 4', 'marker-end': 'url(#arrow-move)' }));
    }
    for (const [x1, y1, x2, y2] of s.a || []) {
      parts.push(svg('line', { x1: x1 / 10, y1: y1 / 10, x2: x2 / 10, y2: y2 / 10,
        stroke: '#b00020', 'stroke-width': 5, 'marker-end': 'url(#arrow)', opacity: 0.85 }));
    }
    for (const [x1, y1, x2, y2] of s.f || []) {
      parts.push(svg('line', { x1: x1 / 10, y1: y1 / 10, x2: x2 / 10, y2: y2 / 10,
        stroke: '#ff6f00', 'stroke-width': 2.5, 'stroke-dasharray': '2 3' }));
      parts.push(svg('circle', { cx: x2 / 10, cy: y2 / 10, r: 7, fill: 'none',
        stroke: '#ff6f00', 'stroke-width': 2.5 }));
    }
    $('overlay').replaceChildren(...parts);
  };

  const PIPS = { 1: [[14, 14]], 2: [[8, 8], [20, 20]], 3: [[8, 8], [14, 14], [20, 20]],
    4: [[8, 8], [20, 8], [8, 20], [20, 20]], 5: [[8, 8], [20, 8], [14, 14], [8, 20], [20, 20]],
    6: [[8, 7], [20, 7], [8, 14], [20, 14], [8, 21], [20, 21]] };
  const drawDice = (s) => {
    const box = $('dice');
    box.replaceChildren();
    if (!s.d) return;
    for (const face of s.d) {
      const pass = s.dn === undefined || face >= s.dn;
      const die = svg('svg', { width: 28, height: 28, viewBox: '0 0 28 28',
        class: pass ? 'pass' : 'fail', role: 'img', 'aria-label': `die ${face}` });
      die.appendChild(svg('rect', { x: 1, y: 1, width: 26, height: 26, rx: 5, 'stroke-width': 1.5 }));
      for (const [x, y] of PIPS[face] || []) die.appendChild(svg('circle', { cx: x, cy: y, r: 2.6, fill: '#222' }));
      box.appendChild(die);
    }
    if (s.dn !== undefined) {
      const need = document.createElement('span');
      need.className = 'need';
      need.textContent = `need ${s.dn}+`;
      box.appendChild(need);
    }
  };

  return { svg, units, drawLayout, drawScene, drawDice };
};
