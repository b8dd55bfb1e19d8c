// Chunks a Markdown reply like chunkText, but a fenced code block cut between two chunks is closed at the end of
// the first and reopened (same fence, same language) at the start of the next, so each chunk renders on its own.
// Deterministic (the reply pump resumes a half-sent reply by chunk index).
import { bestCut, chunkText } from '../chunking.ts';

/** Room kept for the "\n```" that closes a fence cut at a chunk's end. */
const RESERVE = 16;
/** Below this limit there is no room to close and reopen fences: plain chunking. */
const MIN_FENCE_AWARE = 64;
const OPEN = /^ {0,3}(`{3,}|~{3,})\s*([A-Za-z0-9_+#.-]{1,32})?/;

/** The fence still open at the end of `text`, as the line that reopens it; null when none is. */
export function openFence(text: string): { marker: string; reopen: string } | null {
  let open: { marker: string; reopen: string } | null = null;
  for (const line of text.split('\n')) {
    if (open) {
      const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (m?.[1] && m[1][0] === open.marker[0] && m[1].length >= open.marker.length) open = null;
      continue;
    }
    const m = OPEN.exec(line);
    // An info string with a backtick makes the line text, not a fence (as parse.ts reads it).
    if (m?.[1] && !line.slice(m[0].length).includes('`'))
      open = { marker: m[1], reopen: m[1] + (m[2] ?? '') };
  }
  return open;
}

/** Chunks of at most `max` code points, fenced blocks closed and reopened across chunk boundaries. */
export function chunkMarkdown(text: string, max: number): string[] {
  if (max < MIN_FENCE_AWARE) return chunkText(text, max);
  const chunks: string[] = [];
  let rest = [...text];
  // The text's own unclosed fence is closed too (Discord shows an unclosed one as literal backticks).
  const closerOf = (text: string) => {
    const open = openFence(text);
    return open ? `\n${open.marker}` : '';
  };
  while (rest.length + closerOf(rest.join('')).length > max) {
    // Cut as chunkText would; only a cut inside a fence is redone with room left for the closing fence.
    let piece = cutPiece(rest, max);
    let fence = openFence(piece);
    if (fence) {
      piece = cutPiece(rest, max - RESERVE);
      fence = openFence(piece);
    }
    if (fence && fence.marker.length + 1 > RESERVE) {
      if (fence.marker.length + 1 + fence.reopen.length + 8 > max / 2)
        return [...chunks, ...chunkText(rest.join(''), max)];
      piece = cutPiece(rest, max - fence.marker.length - 1);
      fence = openFence(piece);
    }
    let remainder = rest.slice([...piece].length);
    if (fence) {
      // Inside code: keep indentation, drop only the line break the cut was made at.
      if (remainder[0] === '\n') remainder.shift();
      chunks.push(`${piece}\n${fence.marker}`);
      remainder = [...`${fence.reopen}\n`, ...remainder];
    } else {
      while (remainder.length && (remainder[0] === '\n' || remainder[0] === ' ')) remainder.shift();
      if (piece.trim()) chunks.push(piece.trimEnd());
    }
    // Cannot happen with sane limits; a guard so no input can spin this loop.
    if (remainder.length >= rest.length) return [...chunks, ...chunkText(remainder.join(''), max)];
    rest = remainder;
  }
  const last = rest.join('');
  if (last.trim()) chunks.push(last + closerOf(last));
  return chunks;
}

/** The head of `rest` up to a good boundary within `budget` code points (not trimmed: lengths line up). */
function cutPiece(rest: string[], budget: number): string {
  const window = rest.slice(0, budget).join('');
  return window.slice(0, bestCut(window, budget));
}
