// Telegram's HTML parse mode as the Bot API applies it: the tags it knows, balanced, `&` only as an entity,
// else "can't parse entities". Returns the message's plain text (limits are counted on it, as Telegram does).
const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'code',
  'pre',
  'a',
  'blockquote',
  'tg-spoiler',
  'span',
]);
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export type ParsedHtml = { ok: true; text: string } | { ok: false; description: string };

export function parseTelegramHtml(html: string): ParsedHtml {
  const fail = (why: string): ParsedHtml => ({
    ok: false,
    description: `Bad Request: can't parse entities: ${why}`,
  });
  const open: string[] = [];
  let text = '';
  let i = 0;
  while (i < html.length) {
    const ch = html[i];
    if (ch === '<') {
      const m = /^<(\/?)([a-z-]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/i.exec(html.slice(i));
      if (!m) return fail(`unexpected < at byte offset ${i}`);
      const [whole, closing, rawName] = m;
      const name = (rawName ?? '').toLowerCase();
      if (!TAGS.has(name)) return fail(`unsupported start tag "${name}" at byte offset ${i}`);
      if (closing) {
        if (open.pop() !== name) return fail(`can't find end tag corresponding to start tag "${name}"`);
      } else open.push(name);
      i += whole.length;
      continue;
    }
    if (ch === '&') {
      const m = /^&(lt|gt|amp|quot|#\d{1,7});/.exec(html.slice(i));
      if (!m) return fail(`unsupported entity at byte offset ${i}`);
      const name = m[1] ?? '';
      text += name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : ENTITIES[name];
      i += m[0].length;
      continue;
    }
    if (ch === '>') return fail(`unexpected > at byte offset ${i}`);
    text += ch;
    i++;
  }
  if (open.length) return fail(`can't find end tag corresponding to start tag "${open.at(-1)}"`);
  return { ok: true, text };
}
