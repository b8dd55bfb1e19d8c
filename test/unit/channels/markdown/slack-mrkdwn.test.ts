import { describe, expect, it } from 'vitest';
import { toSlackMrkdwn } from '../../../../channels/slack/slack-mrkdwn.ts';

describe('toSlackMrkdwn', () => {
  it('renders emphasis, code and links in mrkdwn', () => {
    expect(toSlackMrkdwn('**bold**, *it*, ~~gone~~, `a && b`')).toBe(
      '*bold*, _it_, ~gone~, `a &amp;&amp; b`',
    );
    expect(toSlackMrkdwn('[docs](https://example.com/?a=1&b=2)')).toBe(
      '<https://example.com/?a=1&amp;b=2|docs>',
    );
    expect(toSlackMrkdwn('# Title\n- item\n> quote')).toBe('*Title*\n• item\n> quote');
  });

  it('renders fenced blocks and keeps a ``` inside from ending them', () => {
    expect(toSlackMrkdwn('```js\nif (a < b) {}\n```')).toBe('```\nif (a &lt; b) {}\n```');
    const out = toSlackMrkdwn('````\n```\ninner\n```\n````');
    expect(out.match(/```/g)).toHaveLength(2);
    expect(out).toContain('inner');
  });

  it('escapes the model text so it can never form a link or a ping', () => {
    expect(toSlackMrkdwn('<!channel> <@U123> <https://evil|x> & <script>')).toBe(
      '&lt;!channel&gt; &lt;@U123&gt; &lt;https://evil|x&gt; &amp; &lt;script&gt;',
    );
    expect(toSlackMrkdwn('[x](javascript:alert(1))')).toBe('[x](javascript:alert(1))');
    expect(toSlackMrkdwn('[a <b>](https://e.example)')).toBe('<https://e.example|a &lt;b&gt;>');
  });

  it('keeps unbalanced markers literal and survives adversarial input', () => {
    expect(toSlackMrkdwn('**open')).toBe('**open');
    expect(toSlackMrkdwn('snake_case_name')).toBe('snake_case_name');
    for (const md of ['*'.repeat(5000), '`'.repeat(3000), '['.repeat(3000), '<>&'.repeat(3000)]) {
      expect(toSlackMrkdwn(md)).not.toMatch(/<(?!https?:|mailto:)/);
    }
  });
});
