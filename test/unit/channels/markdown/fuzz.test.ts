// Seeded random Markdown-ish input: every rendering must stay valid for its platform, whatever the model wrote.
import { describe, expect, it } from 'vitest';
import { toSlackMrkdwn } from '../../../../channels/slack/slack-mrkdwn.ts';
import { toTelegramHtml } from '../../../../channels/telegram/telegram-html.ts';
import { chunkMarkdown, openFence } from '../../../../src/channel-host/markdown/chunk.ts';
import { parseTelegramHtml } from '../../../fakes/telegram-html.ts';

const PIECES = [
  '**',
  '*',
  '_',
  '__',
  '~~',
  '`',
  '```',
  '```ts',
  '~~~',
  '\n',
  ' ',
  'word',
  '[',
  ']',
  '(',
  ')',
  'https://e.example/?a=1&b=2',
  'javascript:x',
  '<',
  '>',
  '&',
  '<b onclick="x">',
  '</b>',
  '# ',
  '> ',
  '- ',
  '1. ',
  '\\',
  '😀',
  '"',
  '<!channel>',
];

function* cases(seed: number, count: number): Generator<string> {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s;
  };
  for (let n = 0; n < count; n++) {
    const len = next() % 80;
    yield Array.from({ length: len }, () => PIECES[next() % PIECES.length]).join('');
  }
}

describe('markdown fuzz', () => {
  it('Telegram HTML always parses and shows no more characters than the source', () => {
    for (const md of cases(42, 3000)) {
      const parsed = parseTelegramHtml(toTelegramHtml(md));
      expect(parsed, md).toMatchObject({ ok: true });
      if (parsed.ok) expect(parsed.text.length, md).toBeLessThanOrEqual(md.length);
    }
  });

  it('Slack mrkdwn never carries a raw < other than a link it made', () => {
    for (const md of cases(7, 3000)) {
      expect(toSlackMrkdwn(md), md).not.toMatch(/<(?!https:\/\/e\.example\/\?a=1&amp;b=2\|)/);
    }
  });

  it('fence-aware chunks stay under the limit and leave no fence open', () => {
    for (const md of cases(9, 300)) {
      const text = md.repeat(20);
      for (const c of chunkMarkdown(text, 200)) {
        expect([...c].length).toBeLessThanOrEqual(200);
        expect(openFence(c), c).toBeNull();
      }
    }
  });
});
