// Splits a reply into platform-sized messages, preferring paragraph, line and word boundaries.

/** Chunks of at most `max` code points; never splits a surrogate pair; empty text gives no chunk. */
export function chunkText(text: string, max: number): string[] {
  if (max < 1) throw new Error('chunk size must be at least 1');
  const chunks: string[] = [];
  let rest = [...text];
  while (rest.length > max) {
    const window = rest.slice(0, max).join('');
    const cut = bestCut(window, max);
    chunks.push(window.slice(0, cut).trimEnd());
    rest = [...window.slice(cut), ...rest.slice(max)];
    while (rest.length && (rest[0] === '\n' || rest[0] === ' ')) rest.shift();
  }
  const last = rest.join('');
  if (last.trim()) chunks.push(last);
  return chunks.filter((c) => c.length > 0);
}

/** A cut position (UTF-16 index into window) at the last good boundary in the back half, else the end. */
export function bestCut(window: string, max: number): number {
  const floor = Math.floor(window.length / 2);
  for (const sep of ['\n\n', '\n', ' ']) {
    const at = window.lastIndexOf(sep);
    if (at >= floor && at > 0) return at;
  }
  return window.length > 0 && max > 0 ? window.length : 1;
}
