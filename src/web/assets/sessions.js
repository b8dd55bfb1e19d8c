// Sessions list and transcript pages: keeps each conversation's turn state current (short polling), asks before
// an abort, and copies a card's stored original input. Texts come from the page's data-* attributes.
const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
const POLL_MS = 2000;

function setState(el, running) {
  el.dataset.running = running ? '1' : '0';
  const state = el.querySelector('.state');
  const button = el.querySelector('button[data-abort]');
  if (running) {
    delete el.dataset.aborted;
    state.textContent = el.dataset.labelRunning;
  } else {
    state.textContent = el.dataset.abortSent === '1' ? el.dataset.labelAborted : el.dataset.labelIdle;
    if (el.dataset.abortSent === '1') el.dataset.aborted = '1';
  }
  if (button) button.hidden = !running;
}

async function poll() {
  const turns = document.querySelectorAll('[data-conversation]');
  if (turns.length === 0) return;
  try {
    const res = await fetch('/ui/sessions/running', { headers: { accept: 'application/json' } });
    if (!res.ok) return;
    const running = new Set((await res.json()).running);
    for (const el of turns) setState(el, running.has(el.dataset.conversation));
  } catch {
    // the next poll tries again
  }
}

async function abort(button) {
  const el = button.closest('[data-conversation]');
  const outcome = el.querySelector('.outcome');
  if (!window.confirm(button.dataset.confirm)) return;
  button.disabled = true;
  try {
    const res = await fetch(button.dataset.abort, { method: 'POST', headers: { 'x-csrf-token': csrf } });
    const body = await res.json();
    outcome.textContent = body.message ?? body.error ?? button.dataset.failed;
    if (res.ok && body.aborted) el.dataset.abortSent = '1';
  } catch {
    outcome.textContent = button.dataset.failed;
  } finally {
    button.disabled = false;
  }
  await poll();
}

async function copy(button) {
  const original = button.parentElement.querySelector('textarea.original');
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(original.value);
    button.dataset.copied = '1';
  } catch {
    button.dataset.copied = '0';
  }
  button.textContent =
    button.dataset.copied === '1' ? button.dataset.labelCopied : button.dataset.labelFailed;
  setTimeout(() => {
    button.textContent = label;
  }, 1500);
}

document.addEventListener('click', (ev) => {
  const target = ev.target instanceof Element ? ev.target : null;
  const abortButton = target?.closest('button[data-abort]');
  if (abortButton) void abort(abortButton);
  const copyButton = target?.closest('button[data-copy]');
  if (copyButton) void copy(copyButton);
});

setInterval(poll, POLL_MS);
