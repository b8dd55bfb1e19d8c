// Sessions list and transcript pages: their live parts (the list, the execution tree, the turn state) are pushed
// by the server (live.js); asks before an abort, and copies a card's stored original input. Texts come from the
// page's data-* attributes.
import { followStreams } from './live.js';

const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
/**
 * Conversations this page sent an abort to: `sent` while the turn runs, `ended` once it stopped (shown aborted,
 * also in a list pushed afterwards); a later turn of the conversation starts afresh.
 */
const aborts = new Map();

function setState(el, running) {
  const conversation = el.dataset.conversation;
  if (running && aborts.get(conversation) === 'ended') aborts.delete(conversation);
  if (!running && aborts.has(conversation)) aborts.set(conversation, 'ended');
  el.dataset.running = running ? '1' : '0';
  const state = el.querySelector('.state');
  const button = el.querySelector('button[data-abort]');
  if (running) {
    delete el.dataset.aborted;
    state.textContent = el.dataset.labelRunning;
  } else if (aborts.has(conversation)) {
    el.dataset.aborted = '1';
    state.textContent = el.dataset.labelAborted;
  } else {
    state.textContent = el.dataset.labelIdle;
  }
  if (button) button.hidden = !running;
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
    if (res.ok && body.aborted) aborts.set(el.dataset.conversation, 'sent');
  } catch {
    outcome.textContent = button.dataset.failed;
  } finally {
    button.disabled = false;
  }
  // The turn's end arrives by the page's stream (or came already, while the abort was on its way).
  setState(el, el.dataset.running === '1');
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

// A frame's `running` (the transcript page) sets the turn state; a pushed list carries it in its rows.
followStreams((_el, frame) => {
  const running = Array.isArray(frame.running) ? new Set(frame.running) : null;
  for (const turn of document.querySelectorAll('[data-conversation]'))
    setState(turn, running ? running.has(turn.dataset.conversation) : turn.dataset.running === '1');
});
