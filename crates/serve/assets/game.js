// The game page of `hexwar serve`: one more seat of the game. It draws what the server says
// (the board, the counters' layout, the steps of play) and turns clicks into the prompt's own
// lines (`move t72_4 0503`, `odds assault 0604 with t72_4 t72_5`, `end`), which the server
// checks by the rules and answers in the prompt's words. No rule lives here.
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const id = window.location.pathname.split('/').pop();
  const token = new URLSearchParams(window.location.hash.slice(1)).get('t') || '';
  const api = (what, extra = '') => `/api/games/${id}/${what}?t=${encodeURIComponent(token)}${extra}`;

  let view = null;
  let board = null;
  let boardCount = -1;
  let logLength = 0;
  let eventsSeen = 0;
  let selected = [];
  let actions = [];
  let busy = false;
  let again = false;
  let asked = '';

  const say = (text, cls = '') => {
    const box = $('odds');
    box.replaceChildren();
    if (!text) return;
    const pre = document.createElement('pre');
    pre.textContent = text.trim();
    if (cls) pre.className = cls;
    box.appendChild(pre);
  };

  const log = (lines) => {
    const box = $('log');
    for (const line of lines) {
      const p = document.createElement('p');
      p.textContent = line;
      if (line.startsWith('-- ')) p.className = 'phase';
      else if (line.startsWith('> ')) p.className = 'typed';
      box.appendChild(p);
    }
    box.scrollTop = box.scrollHeight;
  };

  // A line of the prompt, sent as the person's; the answer's words are shown.
  const send = async (line) => {
    const r = await fetch(`/api/games/${id}/line`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ t: token, line }),
    });
    const answer = await r.json().catch(() => ({ error: `status ${r.status}` }));
    if (answer.error) {
      say(answer.error, 'refused');
      return answer;
    }
    say(answer.said, answer.result === 'refused' ? 'refused' : '');
    await refresh();
    return answer;
  };

  const loadBoard = async () => {
    const r = await fetch(api('board.svg'));
    $('board').innerHTML = await r.text();
    board = window.hexwarBoard(36, [[-9, 2, 10], [7, -4, 11], [4, 10, 9]]);
    document.querySelectorAll('#hexes .hex').forEach((h) => {
      h.addEventListener('click', (e) => clickHex(h.dataset.hex, e.shiftKey || e.ctrlKey || e.metaKey));
    });
  };

  const sleep = (ms) => new Promise((done) => { setTimeout(done, ms); });

  // The steps of play since the page last looked, shown one by one as the replay page shows
  // them: the counters moving, fire lines, assault arrows, dice.
  const animate = async (steps) => {
    const pause = steps.length > 60 ? 80 : steps.length > 20 ? 220 : 450;
    for (const s of steps) {
      board.drawLayout(s.k);
      board.drawScene(s);
      board.drawDice(s);
      $('caption').textContent = s.c;
      $('board').classList.toggle('night', Boolean(s.nt));
      if (s.f || s.a || s.m || s.d) await sleep(pause);
    }
  };

  const refresh = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        const r = await fetch(api('view', `&log=${logLength}&events=${eventsSeen}`));
        const v = await r.json();
        if (v.error) {
          say(v.error, 'refused');
          return;
        }
        view = v;
        if (v.board !== boardCount) {
          await loadBoard();
          boardCount = v.board;
        }
        log(v.log);
        logLength = v.log_length;
        if (eventsSeen > 0) await animate(v.steps);
        eventsSeen = v.events;
        board.drawLayout(v.layout);
        board.drawScene({});
        $('board').classList.toggle('night', v.night);
        showWaiting();
        $('status').textContent = v.status;
        await showSelection();
      } while (again);
    } finally {
      busy = false;
    }
  };

  const mine = () => (view ? view.units.filter((u) => view.yours.includes(u.side)) : []);
  const unitsAt = (hex) => (view ? view.units.filter((u) => u.hex === hex && u.alive) : []);
  // Units held off the map (in ambush, or a reserve) are chosen from a list.
  const offMap = () => mine().filter((u) => u.alive && !u.hex && !u.aboard);
  const yourTurn = () => view && view.waiting.kind === 'commands' && view.waiting.yours;

  const showWaiting = () => {
    const w = view.waiting;
    const box = $('waiting');
    $('title').textContent = view.title;
    document.title = `${view.title} — hexwar`;
    $('save').href = api('save');
    $('replay').hidden = w.kind !== 'over';
    $('replay').href = api('replay');
    let text = '';
    if (w.kind === 'commands') {
      const side = view.sides.find((s) => s.id === w.side);
      text = w.yours
        ? `Turn ${w.turn} of ${view.turns} · ${side.name}, ${w.phase} phase. May act: ${w.acting.join(' ') || 'nothing'}.`
        : `Turn ${w.turn} of ${view.turns} · waiting for ${side.name} (${w.phase} phase).`;
    } else if (w.kind === 'question') {
      text = w.yours ? w.text : `The other side is answering: ${w.text}`;
    } else if (w.kind === 'over') {
      text = w.result || 'The battle is over.';
    } else {
      text = 'The game runs on…';
    }
    box.textContent = text;
    box.className = w.kind === 'commands' && w.yours ? 'yours' : '';
    $('end').disabled = !yourTurn();
    $('undo').disabled = !yourTurn();
    showQuestion();
  };

  // A question of the rules, asked of this seat: a dialog with its choices; where to break
  // off is shown on the map too.
  const showQuestion = () => {
    const w = view.waiting;
    const dialog = $('question');
    const open = w.kind === 'question' && w.yours;
    if (!open) {
      if (dialog.open) dialog.close();
      asked = '';
      return;
    }
    if (asked === w.text && dialog.open) return;
    asked = w.text;
    $('question-text').textContent = w.text;
    const buttons = w.choices.map((c) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = c.suggested ? `${c.label} (the AI's advice)` : c.label;
      b.dataset.answer = c.answer;
      if (c.suggested) b.className = 'suggested';
      b.addEventListener('click', () => {
        dialog.close();
        send(c.answer);
      });
      return b;
    });
    $('question-choices').replaceChildren(...buttons);
    if (!dialog.open) dialog.show();
    light();
  };

  const light = () => {
    const marks = new Map();
    const mark = (hex, cls) => { if (hex) marks.set(hex, cls); };
    // A hex reached at a walk shows as such, whether or not the double reaches it too.
    for (const a of actions) {
      if (a.kind === 'move' && !a.double) mark(a.hex, 'walk');
    }
    for (const a of actions) {
      if (a.kind === 'move' && a.double && !marks.has(a.hex)) mark(a.hex, 'double');
    }
    for (const a of actions) {
      if (a.kind !== 'move' && !a.kind.startsWith('dismount') && a.kind !== 'remount' && a.kind !== 'mount') mark(a.hex, 'target');
    }
    for (const u of selected) {
      const unit = view.units.find((x) => x.id === u);
      if (unit) mark(unit.hex, 'selected');
    }
    const w = view.waiting;
    if (w.kind === 'question' && w.yours) for (const h of w.hexes) mark(h, 'choice');
    document.querySelectorAll('#hexes .hex').forEach((h) => {
      h.setAttribute('class', `hex ${marks.get(h.dataset.hex) || ''}`);
    });
  };

  const showSelection = async () => {
    const box = $('selection');
    selected = selected.filter((u) => mine().some((x) => x.id === u && x.alive));
    actions = [];
    if (selected.length && yourTurn()) {
      const r = await fetch(api('reach', `&unit=${encodeURIComponent(selected[selected.length - 1])}`));
      const a = await r.json();
      actions = a.actions || [];
    }
    box.replaceChildren();
    for (const u of selected) {
      const unit = view.units.find((x) => x.id === u);
      const p = document.createElement('p');
      p.className = 'unit-line';
      p.textContent = `${unit.id} (${unit.type}) ${unit.hex ? `at ${unit.hex}` : unit.aboard ? `aboard ${unit.aboard}` : 'off the map'}${unit.marks.length ? ` — ${unit.marks.join(', ')}` : ''}`;
      box.appendChild(p);
    }
    const held = yourTurn() ? offMap() : [];
    if (held.length) {
      const p = document.createElement('p');
      p.className = 'held';
      p.append('Off the map (in ambush, or to arrive): ');
      for (const u of held) {
        const b = document.createElement('button');
        b.textContent = u.id;
        b.addEventListener('click', () => { selected = [u.id]; say(''); showSelection(); });
        p.append(b, ' ');
      }
      box.appendChild(p);
    }
    if (selected.length > 1) {
      const p = document.createElement('p');
      p.className = 'hint';
      p.textContent = 'Click an enemy hex to see the odds of these units assaulting it together.';
      box.appendChild(p);
    }
    const others = actions.filter((a) => a.kind !== 'move');
    if (others.length) {
      const list = document.createElement('div');
      list.className = 'actions';
      for (const a of others) {
        const b = document.createElement('button');
        b.textContent = a.text;
        b.dataset.kind = a.kind;
        b.addEventListener('click', () => act(a));
        list.appendChild(b);
      }
      box.appendChild(list);
    }
    const moves = actions.filter((a) => a.kind === 'move').length;
    if (moves) {
      const p = document.createElement('p');
      p.className = 'hint';
      p.textContent = 'Click a lit hex to move there: green at a walk, yellow at the double. Esc clears the selection.';
      box.appendChild(p);
    }
    light();
  };

  // An assault or overrun shows its odds first; a button commits it.
  const act = async (a) => {
    if (a.kind === 'assault' || a.kind === 'overrun') {
      await showOdds(a.text);
      return;
    }
    await send(a.text);
  };

  const showOdds = async (command) => {
    const answer = await send(`odds ${command}`);
    if (answer.result === 'refused' || answer.error) return;
    const go = document.createElement('button');
    go.id = 'commit';
    go.textContent = `${command[0].toUpperCase()}${command.slice(1)}`;
    go.addEventListener('click', async () => {
      await send(command);
    });
    $('odds').appendChild(go);
  };

  const clickHex = async (hex, adding) => {
    if (!view) return;
    const w = view.waiting;
    if (w.kind === 'question' && w.yours && w.hexes.includes(hex)) {
      $('question').close();
      await send(hex);
      return;
    }
    const here = unitsAt(hex);
    const ours = here.filter((u) => view.yours.includes(u.side));
    const enemy = here.filter((u) => !view.yours.includes(u.side));
    if (selected.length && enemy.length && yourTurn()) {
      const own = actions.filter((a) => a.hex === hex && a.kind !== 'move');
      if (selected.length > 1 || own.some((a) => a.kind === 'assault')) {
        await showOdds(`assault ${hex} with ${selected.join(' ')}`);
        return;
      }
      if (own.length === 1) {
        await act(own[0]);
        return;
      }
      if (own.length > 1) {
        say(`At ${hex}: ${own.map((a) => a.text).join(' · ')} (choose below)`);
        return;
      }
    }
    const move = actions.find((a) => a.kind === 'move' && a.hex === hex && !a.double)
      || actions.find((a) => a.kind === 'move' && a.hex === hex);
    // A lit hex is a move, friends there or not (Esc clears the selection to pick another).
    if (selected.length === 1 && move && !adding) {
      await send(move.text);
      return;
    }
    const place = actions.find((a) => a.hex === hex && (a.kind === 'place' || a.kind === 'bombard' || a.kind === 'smoke' || a.kind === 'air strike'));
    if (selected.length === 1 && place && !adding) {
      await act(place);
      return;
    }
    if (ours.length) {
      // Click again to take the next unit of the stack; with Shift, add it.
      const ids = ours.map((u) => u.id);
      const last = selected[selected.length - 1];
      const next = ids.includes(last) && !adding ? ids[(ids.indexOf(last) + 1) % ids.length] : ids.find((u) => !selected.includes(u)) || ids[0];
      selected = adding ? [...selected.filter((u) => u !== next), next] : [next];
    } else if (!adding) {
      selected = [];
    }
    say('');
    await showSelection();
  };

  $('end').addEventListener('click', () => { selected = []; send('end'); });
  $('undo').addEventListener('click', () => send('undo'));
  $('clear').addEventListener('click', () => { selected = []; say(''); showSelection(); });
  $('prompt').addEventListener('submit', (e) => {
    e.preventDefault();
    const line = $('line').value.trim();
    if (!line) return;
    $('line').value = '';
    send(line);
  });
  document.addEventListener('keydown', (e) => {
    if (e.target === $('line')) {
      if (e.key === 'Escape') $('line').blur();
      return;
    }
    const key = {
      e: () => { if (yourTurn()) { selected = []; send('end'); } },
      u: () => { if (yourTurn()) send('undo'); },
      s: () => { $('status-box').open = !$('status-box').open; },
      Escape: () => { selected = []; say(''); showSelection(); },
      '/': () => $('line').focus(),
      h: () => {
        const held = offMap();
        if (held.length) { selected = [held[0].id]; showSelection(); }
      },
    }[e.key];
    if (key) {
      e.preventDefault();
      key();
    }
  });

  const events = new EventSource(api('stream'));
  let version = -1;
  events.addEventListener('update', (e) => {
    const s = JSON.parse(e.data);
    const t = $('thinking');
    t.hidden = !s.thinking;
    t.textContent = s.thinking ? `${s.thinking} is playing…` : '';
    if (s.version !== version) {
      version = s.version;
      refresh();
    }
  });
  window.hexwarGame = { send, refresh, state: () => ({ view, selected, actions, busy }) };
  refresh();
})();
