import { describe, expect, it } from 'vitest';
import { toTelegramHtml } from '../../../../channels/telegram/telegram-html.ts';
import { parseTelegramHtml } from '../../../fakes/telegram-html.ts';

/** Every rendering must be accepted by Telegram's HTML parser (as the fake applies it). */
function render(md: string): string {
  const html = toTelegramHtml(md);
  const parsed = parseTelegramHtml(html);
  expect(parsed, `rejected: ${html}`).toMatchObject({ ok: true });
  return html;
}

describe('toTelegramHtml', () => {
  it('renders emphasis, code, links and strike', () => {
    expect(render('**bold** and *it* and _it2_ and ~~gone~~ and `x < y`')).toBe(
      '<b>bold</b> and <i>it</i> and <i>it2</i> and <s>gone</s> and <code>x &lt; y</code>',
    );
    expect(render('see [the docs](https://example.com/a?b=1&c=2)')).toBe(
      'see <a href="https://example.com/a?b=1&amp;c=2">the docs</a>',
    );
    expect(render('__also bold__')).toBe('<b>also bold</b>');
    expect(render('***both***')).toBe('<b><i>both</i></b>');
  });

  it('renders headings as bold, lists with bullets, and quotes', () => {
    expect(render('# Title\n## Sub #\ntext')).toBe('<b>Title</b>\n<b>Sub</b>\ntext');
    expect(render('- one\n* two\n  + nested\n1. first\n2) second')).toBe(
      '• one\n• two\n  • nested\n1. first\n2) second',
    );
    expect(render('> quoted **b**\n> more\n\n> other')).toBe(
      '<blockquote>quoted <b>b</b>\nmore</blockquote>\n\n<blockquote>other</blockquote>',
    );
    expect(render('---')).toBe('---');
  });

  it('renders fenced blocks with a language class and escapes their content', () => {
    expect(render('```ts\nconst a = b < c && d;\n```')).toBe(
      '<pre><code class="language-ts">const a = b &lt; c &amp;&amp; d;</code></pre>',
    );
    expect(render('~~~\n**not bold**\n~~~')).toBe('<pre>**not bold**</pre>');
    // A shorter fence inside a longer one is content; the block ends at a fence at least as long.
    expect(render('````md\n```\ninner\n```\n````\nafter')).toBe(
      '<pre><code class="language-md">```\ninner\n```</code></pre>\nafter',
    );
    // An unclosed fence runs to the end.
    expect(render('```\nopen <b>')).toBe('<pre>open &lt;b&gt;</pre>');
    // A language that is not a plain word is dropped, never put into the attribute.
    expect(render('```"><script>\nx\n```')).toBe('<pre>x</pre>');
  });

  it('escapes HTML the model wrote', () => {
    expect(render('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(render('<b onclick="x()">hi</b> & more')).toBe('&lt;b onclick="x()"&gt;hi&lt;/b&gt; &amp; more');
    expect(render('&amp; &lt;')).toBe('&amp;amp; &amp;lt;');
  });

  it('keeps unbalanced or odd markers literal', () => {
    expect(render('**unclosed bold')).toBe('**unclosed bold');
    expect(render('a * b * c')).toBe('a * b * c');
    expect(render('snake_case_name and __init__')).toBe('snake_case_name and <b>init</b>');
    expect(render('`unclosed code')).toBe('`unclosed code');
    expect(render('**a `**` b**')).toBe('<b>a <code>**</code> b</b>');
    expect(render('``code with ` tick``')).toBe('<code>code with ` tick</code>');
    expect(render('\\*not italic\\*')).toBe('*not italic*');
    expect(render('*')).toBe('*');
    expect(render('****')).toBe('****');
    expect(render('**_mixed**_')).toMatch(/^/);
  });

  it('keeps only safe link targets', () => {
    expect(render('[x](javascript:alert(1))')).toBe('[x](javascript:alert(1))');
    expect(render('[x](https://a.example/"onmouseover=")')).toBe('[x](https://a.example/"onmouseover=")');
    expect(render('[**b**](mailto:a@b.c)')).toBe('<a href="mailto:a@b.c"><b>b</b></a>');
    expect(render('[](https://e.example)')).toBe('<a href="https://e.example">https://e.example</a>');
    expect(render('[unclosed](https://e.example')).toBe('[unclosed](https://e.example');
  });

  it('survives adversarial input and stays valid', () => {
    const inputs = [
      '*'.repeat(5000),
      '_'.repeat(5000),
      '`'.repeat(3000),
      '['.repeat(2000) + ']('.repeat(2000),
      '**a '.repeat(2000),
      `${'**a '.repeat(500)}${'b** '.repeat(500)}`,
      'x'.repeat(50_000),
      '<'.repeat(1000) + '&'.repeat(1000),
      '```\n'.repeat(999),
      '> '.repeat(500),
      Array.from({ length: 300 }, (_, i) => ['**', '*', '_', '~~', '`', '[', '](', ')'][i % 8]).join('x'),
    ];
    for (const md of inputs) render(md);
  });

  it('renders a long line in reasonable time', () => {
    const md = 'a *b '.repeat(20_000);
    const started = performance.now();
    render(md);
    // Not a timing assertion on the machine's speed: a quadratic walk over 100 kB takes minutes, this seconds.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
