// Markdown → Slack mrkdwn: *bold*, _italic_, ~strike~, `code`, ```pre```, <url|text>. The model's text is
// escaped (&, <, >) so it can never form a Slack link or a ping such as <!channel>.
import { type Block, type Inline, parseMarkdown } from '../../src/channel-host/markdown/parse.ts';

export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

const MARK = { b: '*', i: '_', s: '~' } as const;

function spans(nodes: Inline[]): string {
  return nodes
    .map((n) => {
      switch (n.t) {
        case 'text':
          return escapeMrkdwn(n.v);
        case 'code':
          // Slack has no way to show a backtick inside a code span; it becomes a look-alike.
          return `\`${escapeMrkdwn(n.v.replaceAll('`', 'ˋ'))}\``;
        case 'a':
          // The url passed the allowlist (no <, >, | or spaces); the label must not hold a `>` either.
          return `<${n.href.replaceAll('&', '&amp;')}|${spans(n.c)}>`;
        default:
          return `${MARK[n.t]}${spans(n.c)}${MARK[n.t]}`;
      }
    })
    .join('');
}

function block(b: Block): string {
  switch (b.t) {
    case 'line':
      return spans(b.c);
    case 'heading':
      return `*${spans(b.c)}*`;
    case 'item':
      return `${b.indent}${b.marker} ${spans(b.c)}`;
    case 'quote':
      return b.lines.map((l) => `&gt; ${spans(l)}`.replace(/^&gt;/, '>')).join('\n');
    case 'pre':
      // A ``` inside the code would end Slack's block early; a zero-width space keeps it literal.
      return `\`\`\`\n${escapeMrkdwn(b.code.replaceAll('```', '`\u200b``'))}\n\`\`\``;
  }
}

/** The reply as Slack mrkdwn (for a `text` field or a mrkdwn section). */
export function toSlackMrkdwn(markdown: string): string {
  return parseMarkdown(markdown).map(block).join('\n');
}
