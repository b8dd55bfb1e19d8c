// The web chat page: live feed over EventSource (replayed from the server, resumed with Last-Event-ID), sending
// with the CSRF header, buttons under messages, files uploaded from the paperclip and sent with the next message.
// Message HTML comes sanitised from the server; every other text (file names included) is inserted with
// textContent.

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
const picker = document.getElementById('chat-file');
const attach = document.getElementById('chat-attach');
const pendingList = document.getElementById('chat-files');
const texts = root.dataset;

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
  if (!res.ok)
    throw Object.assign(new Error(data.error ?? `HTTP ${res.status}`), { gone: res.status === 409 });
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

/** A file the bot sent: a download link (and a preview for an image); the URL must be this chat's own. */
function renderFile(li, file) {
  if (!file || typeof file.url !== 'string' || !file.url.startsWith(`${base}/files/`)) return;
  const div = document.createElement('div');
  div.className = 'file';
  if (file.image) {
    const img = document.createElement('img');
    img.className = 'preview';
    img.src = file.url;
    img.alt = file.name;
    div.append(img);
  }
  const link = document.createElement('a');
  link.className = 'download';
  link.href = file.url;
  link.download = file.name;
  link.textContent = file.name;
  const size = document.createElement('span');
  size.className = 'size';
  size.textContent = ` (${file.size})`;
  div.append(link, size);
  li.append(div);
}

/** The files a user message sent: their names, as text. */
function renderAttachments(li, attachments) {
  if (!attachments || attachments.length === 0) return;
  const ul = document.createElement('ul');
  ul.className = 'attachments';
  for (const a of attachments) {
    const item = document.createElement('li');
    item.textContent = `${a.name} (${a.size})`;
    ul.append(item);
  }
  li.append(ul);
}

function upsert(id, from, html, buttons, extra = {}) {
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
  renderAttachments(li, extra.attachments);
  renderFile(li, extra.file);
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
    upsert(event.id, event.from, event.html, event.buttons, event);
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

/** Files picked and not yet sent: { li, state: 'uploading' | 'ready' | 'failed', id, done }. */
let pending = [];

/** One file to the server as the raw body; progress shows while it goes; resolves with the upload id. */
function upload(file, status) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${base}/uploads`);
    xhr.setRequestHeader('x-csrf-token', csrf);
    xhr.setRequestHeader('x-file-name', encodeURIComponent(file.name));
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable)
        status.textContent = `${texts.uploading} ${Math.floor((e.loaded / e.total) * 100)}%`;
    });
    xhr.addEventListener('load', () => {
      let data = {};
      try {
        data = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status === 201 && data.id) resolve(data.id);
      else reject(new Error(data.error ?? texts.uploadFailed));
    });
    xhr.addEventListener('error', () => reject(new Error(texts.uploadFailed)));
    xhr.send(file);
  });
}

function addFile(file) {
  const li = document.createElement('li');
  const name = document.createElement('span');
  name.className = 'name';
  name.textContent = file.name;
  const status = document.createElement('span');
  status.className = 'status';
  status.textContent = texts.uploading;
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.textContent = texts.remove;
  remove.setAttribute('aria-label', `${texts.remove} ${file.name}`);
  li.append(name, ' ', status, ' ', remove);
  li.dataset.state = 'uploading';
  pendingList.append(li);
  const entry = { li, state: 'uploading', id: undefined };
  remove.addEventListener('click', () => {
    pending = pending.filter((p) => p !== entry);
    li.remove();
    input.focus();
  });
  entry.done = upload(file, status).then(
    (id) => {
      entry.id = id;
      entry.state = li.dataset.state = 'ready';
      status.textContent = texts.ready;
    },
    (err) => {
      entry.state = li.dataset.state = 'failed';
      status.textContent = err.message;
      status.setAttribute('role', 'alert');
    },
  );
  pending.push(entry);
}

attach.addEventListener('click', () => picker.click());
picker.addEventListener('change', () => {
  for (const file of picker.files) addFile(file);
  picker.value = '';
});

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const files = pending;
  // Enter while files still upload: the message goes once they are up.
  await Promise.all(files.map((p) => p.done));
  if (files !== pending) return; // another submit took them meanwhile
  if (files.some((p) => p.state !== 'ready')) {
    showError(texts.wait);
    return;
  }
  const text = input.value.trim();
  if (!text && files.length === 0) return;
  input.value = '';
  pending = [];
  pendingList.replaceChildren();
  try {
    await write('messages', { text, clientId: uuid(), uploads: files.map((p) => p.id) });
    showError('');
  } catch (err) {
    input.value = text;
    if (!err.gone) {
      pending = files;
      pendingList.replaceChildren(...files.map((p) => p.li));
    }
    showError(err.message);
  }
});

input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    form.requestSubmit();
  }
});
