// Operator pages: refreshes [data-live] fragments by short polling, and sends [data-post] buttons and
// [data-post-form] forms as JSON with the session's CSRF token. The server renders (and escapes) all markup.
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

const live = [...document.querySelectorAll('[data-live]')];

async function refresh(el) {
  try {
    const res = await fetch(el.dataset.live, {
      credentials: 'same-origin',
      headers: { accept: 'text/html' },
    });
    // Server-rendered markup from our own origin (every value escaped there).
    if (res.ok) el.innerHTML = await res.text();
  } catch {
    // offline for a moment: the next poll tries again
  }
}

function poll(el) {
  const ms = Number(el.dataset.pollMs) || 2000;
  const tick = async () => {
    await refresh(el);
    setTimeout(tick, ms);
  };
  setTimeout(tick, ms);
}
for (const el of live) poll(el);

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
  flash(ok ? data.text : data.error, ok);
  await Promise.all(live.map(refresh));
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
