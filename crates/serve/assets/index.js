// The first page of `hexwar serve`: the scenarios offered, each with its briefing and a small
// picture; a side and an opponent chosen, the game is started and the page goes to it.
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs = {}, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    for (const c of children) e.append(c);
    return e;
  };

  const post = async (url, body, type = 'application/json') => {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': type }, body });
    const answer = await r.json().catch(() => ({ error: `status ${r.status}` }));
    if (!r.ok) throw new Error(answer.error || `status ${r.status}`);
    return answer;
  };

  const go = (answer) => {
    const [mine, other] = answer.links;
    if (other) {
      $('share-side').textContent = other.sides.join(' and ');
      $('share-link').value = new URL(other.url, window.location.href).href;
      $('share-go').href = mine.url;
      $('share').hidden = false;
      $('share-link').select();
      return;
    }
    window.location.href = mine.url;
  };

  // Every name, title and text of a scenario reaches the page as text, never as markup: the
  // card is built node by node (a side named `</select><img onerror=...>` is a side's name).
  const option = (value, label) => el('option', { value }, label);
  const card = (s, ais) => {
    const opponentName = (a) => (a === 'doctrine' ? 'doctrine AI' : `search AI, ${a.split(':')[1]} playouts`);
    const form = el('form', {},
      el('label', {}, 'Your side ', el('select', { name: 'side' },
        ...s.sides.map((x) => option(x.id, `${x.name} (${x.role})`)),
        option('both', 'both sides (hot-seat)'))),
      el('label', {}, 'Opponent ', el('select', { name: 'opponent' },
        ...ais.map((a) => option(a, opponentName(a))),
        option('person', 'another person (a link to send)'))),
      el('label', {}, 'Seed ', el('input', { name: 'seed', type: 'number', min: '0', step: '1', placeholder: 'any', size: '6' })),
      el('button', { type: 'submit' }, 'Play'),
      el('span', { class: 'error', role: 'alert' }));
    const c = el('article', { class: 'scenario', 'data-name': s.name },
      el('img', { src: s.picture, alt: `the map of ${s.name} at the start`, loading: 'lazy' }),
      el('div', { class: 'about' },
        el('h2', {}, s.title),
        el('p', { class: 'meta' }, `${s.name} · ${s.turns} turns · ${s.source}`),
        // The briefing's paragraphs, its lines joined as a reader's eye would.
        el('p', { class: 'briefing' }, s.description.replace(/([^\n])\n(?!\n)/g, '$1 ')),
        form));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const error = form.querySelector('.error');
      error.textContent = '';
      const side = form.side.value;
      const opponent = form.opponent.value;
      const asked = { scenario: s.name, side, opponent };
      if (form.seed.value !== '') asked.seed = Number(form.seed.value);
      try {
        go(await post('/api/games', JSON.stringify(asked)));
      } catch (err) {
        error.textContent = err.message;
      }
    });
    return c;
  };

  fetch('/api/scenarios').then((r) => r.json()).then((list) => {
    $('scenarios').replaceChildren(...list.scenarios.map((s) => card(s, list.ais)));
  }).catch((e) => { $('scenarios').textContent = `The scenarios did not load: ${e.message}`; });

  $('resume-button').addEventListener('click', async () => {
    $('resume-error').textContent = '';
    const file = $('save-file').files[0];
    if (!file) {
      $('resume-error').textContent = 'Choose a save first.';
      return;
    }
    try {
      go(await post('/api/resume', await file.text(), 'text/plain'));
    } catch (err) {
      $('resume-error').textContent = err.message;
    }
  });
})();
