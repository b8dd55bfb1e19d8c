// Pushed page parts (live.md §6): each [data-stream] element follows its server's stream (EventSource) and takes
// each frame's markup, which the server rendered and escaped. No polling: only when the stream is refused (signed
// out, a gateway without it) does the page ask for one frame every 30 s, and it goes back to the stream once a
// frame comes.
const SLOW_REFRESH_MS = 30_000;

function follow(el, onFrame) {
  const url = el.dataset.stream;
  const apply = (frame) => {
    // Server-rendered markup from our own origin (every value escaped there).
    if (typeof frame.html === 'string') el.innerHTML = frame.html;
    onFrame?.(el, frame);
  };
  const open = () => {
    const source = new EventSource(url);
    source.onmessage = (ev) => apply(JSON.parse(ev.data));
    source.onerror = () => {
      // A dropped connection is retried by EventSource itself; CLOSED means it gave up.
      if (source.readyState === EventSource.CLOSED) setTimeout(refresh, SLOW_REFRESH_MS);
    };
  };
  const refresh = async () => {
    try {
      const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (res.ok) {
        apply(await res.json());
        open();
        return;
      }
    } catch {
      // offline: the next refresh tries again
    }
    setTimeout(refresh, SLOW_REFRESH_MS);
  };
  open();
}

/** Follows every pushed part of the page; `onFrame(el, frame)` runs after each frame is applied. */
export function followStreams(onFrame) {
  for (const el of document.querySelectorAll('[data-stream]')) follow(el, onFrame);
}
