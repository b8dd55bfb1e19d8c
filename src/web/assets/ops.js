// Operator pages: their live fragments are pushed by the server (live.js), and [data-post] buttons and
// [data-post-form] forms are sent as JSON with the session's CSRF token. The server renders (and escapes) all markup.
import { followStreams } from './live.js';

const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';

function flash(text, ok) {
  const el = document.getElementById('flash');
  if (!el) return;
  el.textContent = text;
  el.className = ok ? 'ok' : 'bad';
}

async function post(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
    body: JSON.stringify(body),
  });
  let data = {};
  try {
    data = await res.json();
  } catch {
    data = { error: `HTTP ${res.status}` };
  }
  return { ok: res.ok, data };
}

followStreams();

document.addEventListener('click', async (ev) => {
  const button = ev.target instanceof Element ? ev.target.closest('button[data-post]') : null;
  if (!button) return;
  ev.preventDefault();
  if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
  button.disabled = true;
  const { ok, data } = await post(
    button.dataset.post,
    button.dataset.body ? JSON.parse(button.dataset.body) : {},
  );
  // The change itself arrives by the page's stream.
  flash(ok ? data.text : data.error, ok);
  button.disabled = false;
});

document.addEventListener('submit', async (ev) => {
  const form =
    ev.target instanceof HTMLFormElement && ev.target.matches('[data-post-form]') ? ev.target : null;
  if (!form) return;
  ev.preventDefault();
  const out = form.querySelector('output');
  const body = Object.fromEntries(new FormData(form).entries());
  const { ok, data } = await post(form.getAttribute('action'), body);
  if (out) {
    out.textContent = ok ? data.text : data.error;
    out.className = ok ? 'result ok' : 'result bad';
  }
});
