// Markdown → Telegram's HTML parse mode: only the tags Telegram accepts (b, i, s, code, pre, a, blockquote),
// and every piece of the model's text escaped, so `<script>` or `<b onclick=…>` in a reply shows as written.
import { type Block, type Inline, parseMarkdown } from '../../src/channel-host/markdown/parse.ts';

/** Telegram's HTML escaping: exactly &, < and > (and " inside an attribute). */
export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function spans(nodes: Inline[]): string {
  return nodes
    .map((n) => {
      switch (n.t) {
        case 'text':
          return escapeHtml(n.v);
        case 'code':
          return `<code>${escapeHtml(n.v)}</code>`;
        case 'a':
          return `<a href="${escapeHtml(n.href).replaceAll('"', '&quot;')}">${spans(n.c)}</a>`;
        default:
          return `<${n.t}>${spans(n.c)}</${n.t}>`;
      }
    })
    .join('');
}

function block(b: Block): string {
  switch (b.t) {
    case 'line':
      return spans(b.c);
    case 'heading':
      return `<b>${spans(b.c)}</b>`;
    case 'item':
      return `${b.indent}${escapeHtml(b.marker)} ${spans(b.c)}`;
    case 'quote':
      return `<blockquote>${b.lines.map(spans).join('\n')}</blockquote>`;
    case 'pre': {
      const code = escapeHtml(b.code);
      return b.lang ? `<pre><code class="language-${b.lang}">${code}</code></pre>` : `<pre>${code}</pre>`;
    }
  }
}

/** The reply as Telegram HTML (send with parse_mode 'HTML'). */
export function toTelegramHtml(markdown: string): string {
  return parseMarkdown(markdown).map(block).join('\n');
}
