// Display limits of a transcript card field (delegate.md §18): at most 8 KiB or 100 lines, saying it was cut.

export const FIELD_MAX_BYTES = 8 * 1024;
export const FIELD_MAX_LINES = 100;
/** Arguments whose JSON is longer than this get a generic card (the stored tool results are cut at 16 KiB). */
export const CARD_ARGS_MAX_BYTES = 16 * 1024;

export interface Field {
  /** What is shown (possibly cut). */
  text: string;
  /** Set when `text` is only the start of the value. */
  cut: { shownLines: number; totalLines: number; shownBytes: number; totalBytes: number } | null;
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

export function limitField(value: string): Field {
  const totalBytes = utf8(value);
  const lines = value.split('\n');
  if (totalBytes <= FIELD_MAX_BYTES && lines.length <= FIELD_MAX_LINES) return { text: value, cut: null };
  let text = lines.slice(0, FIELD_MAX_LINES).join('\n');
  if (utf8(text) > FIELD_MAX_BYTES) {
    // Cut on a code point boundary, never inside a character. A code unit is at least one byte, so the cut
    // lies within the first FIELD_MAX_BYTES code units: the loop is bounded whatever the value's size.
    let bytes = 0;
    let out = '';
    for (const ch of text.slice(0, FIELD_MAX_BYTES)) {
      const n = utf8(ch);
      if (bytes + n > FIELD_MAX_BYTES || /^[\uD800-\uDBFF]$/.test(ch)) break;
      bytes += n;
      out += ch;
    }
    text = out;
  }
  return {
    text,
    cut: {
      shownLines: text.split('\n').length,
      totalLines: lines.length,
      shownBytes: utf8(text),
      totalBytes,
    },
  };
}
