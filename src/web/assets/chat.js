// The web chat page: live feed over EventSource (replayed from the server, resumed with Last-Event-ID), sending
// with the CSRF header, buttons under messages. Message HTML comes sanitised from the server; every other text
// is inserted with textContent.

const root = document.getElementById('chat');
const alias = root.dataset.alias;
const base = `/chat/${encodeURIComponent(alias)}`;
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';
const list = document.getElementById('messages');
const empty = document.getElementById('chat-empty');
const typing = document.getElementById('typing');
const errorLine = document.getElementById('chat-error');
const offline = document.getElementById('chat-offline');
const form = document.getElementById('composer');
const input = document.getElementById('chat-input');

/** The runtime repeats typing every few seconds while a turn runs; silence for longer means it ended. */
const TYPING_SHOWN_MS = 7000;
let typingTimer;

function showError(text) {
  errorLine.textContent = text;
  errorLine.hidden = !text;
}

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

async function write(path, body) {
  const res = await fetch(`${base}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error ?? `HTTP ${res.status}`);
  return data;
}

function renderButtons(li, rows) {
  li.querySelector('.buttons-block')?.remove();
  if (!rows || rows.length === 0) return;
  const block = document.createElement('div');
  block.className = 'buttons-block';
  for (const row of rows) {
    const div = document.createElement('div');
    div.className = 'buttons';
    for (const b of row) {
      const btn = document.createElement('button');
      btn.type = 'button';
      btn.textContent = b.label;
      btn.dataset.actionId = b.id;
      if (b.style === 'danger') btn.className = 'danger';
      else if (b.style) btn.className = 'primary';
      btn.addEventListener('click', () => press(li, b.id, block));
      div.append(btn);
    }
    block.append(div);
  }
  li.append(block);
}

async function press(li, actionId, block) {
  for (const b of block.querySelectorAll('button')) b.disabled = true;
  try {
    const res = await write('actions', { messageId: li.dataset.id, actionId });
    if (res.notice) {
      const p = document.createElement('p');
      p.className = 'notice';
      p.textContent = res.notice;
      li.append(p);
    }
    showError('');
  } catch (err) {
    for (const b of block.querySelectorAll('button')) b.disabled = false;
    showError(err.message);
  }
}

function upsert(id, from, html, buttons) {
  let li = list.querySelector(`li[data-id="${CSS.escape(id)}"]`);
  if (!li) {
    li = document.createElement('li');
    li.className = 'msg';
    li.dataset.id = id;
    li.dataset.from = from;
    list.append(li);
  }
  const body = document.createElement('div');
  body.className = 'body';
  body.innerHTML = html; // sanitised by the server (markdown-it, raw HTML off, safe links only)
  li.replaceChildren(body);
  renderButtons(li, buttons);
  empty.hidden = true;
  li.scrollIntoView({ block: 'end' });
}

function apply(event) {
  if (event.t === 'typing') {
    typing.hidden = false;
    clearTimeout(typingTimer);
    typingTimer = setTimeout(() => {
      typing.hidden = true;
    }, TYPING_SHOWN_MS);
    return;
  }
  if (event.t === 'msg') {
    if (event.from === 'bot') typing.hidden = true;
    upsert(event.id, event.from, event.html, event.buttons);
  } else if (event.t === 'edit') {
    const known = list.querySelector(`li[data-id="${CSS.escape(event.id)}"]`);
    upsert(event.id, known?.dataset.from ?? 'bot', event.html, event.buttons);
  }
}

const feed = new EventSource(`${base}/events`);
feed.addEventListener('message', (e) => {
  try {
    apply(JSON.parse(e.data));
  } catch {
    // A malformed event is skipped; the next one still applies.
  }
});
feed.addEventListener('open', () => {
  offline.hidden = true;
  root.dataset.live = 'true';
});
feed.addEventListener('error', () => {
  offline.hidden = false;
});

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  try {
    await write('messages', { text, clientId: uuid() });
    showError('');
  } catch (err) {
    input.value = text;
    showError(err.message);
  }
});

input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    form.requestSubmit();
  }
});
