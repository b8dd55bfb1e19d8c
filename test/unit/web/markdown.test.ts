// The shared Markdown renderer (web chat and transcripts): no raw HTML, only http/https/mailto links, no images.
import { describe, expect, it } from 'vitest';
import { renderChatMarkdown, renderChatPlain } from '../../../src/web/markdown.ts';

const md = (s: string) => renderChatMarkdown(s);

describe('renderMarkdown', () => {
  it('renders Markdown', () => {
    expect(md('**bold** and `code`')).toBe('<p><strong>bold</strong> and <code>code</code></p>\n');
  });

  it('escapes raw HTML', () => {
    const out = md('<script>alert(1)</script><img src=x onerror=alert(1)>');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;script&gt;');
  });

  it('keeps http, https and mailto links (rel noopener), drops any other scheme', () => {
    expect(md('[a](https://example.com/x)')).toContain(
      '<a href="https://example.com/x" rel="noopener noreferrer nofollow" target="_blank">a</a>',
    );
    expect(md('[m](mailto:a@example.com)')).toContain('href="mailto:a@example.com"');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
      '//evil.example',
      '/local',
    ])
      expect(md(`[x](${bad})`)).not.toContain('<a');
  });

  it('renders no images', () => {
    expect(md('![t](https://example.com/i.png)')).not.toContain('<img');
  });
});

describe('renderChatMarkdown', () => {
  it('renders Markdown and keeps only http(s) and mailto links', () => {
    expect(renderChatMarkdown('**b** [a](https://x.example/p?q=1)')).toBe(
      '<p><strong>b</strong> <a href="https://x.example/p?q=1" rel="noopener noreferrer nofollow" target="_blank">a</a></p>\n',
    );
    expect(renderChatMarkdown('[m](mailto:a@b.example)')).toContain('href="mailto:a@b.example"');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      '//evil.example',
    ]) {
      const out = renderChatMarkdown(`[x](${bad})`);
      expect(out).not.toContain('<a');
    }
  });

  it('escapes raw HTML and drops images', () => {
    const out = renderChatMarkdown(
      '<script>alert(1)</script> <img src=x onerror=alert(1)> ![i](https://x.example/i.png)',
    );
    expect(out).not.toMatch(/<(script|img)/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('renders plain text escaped', () => {
    expect(renderChatPlain('a <b> & "c"')).toBe('<p class="plain">a &lt;b&gt; &amp; &quot;c&quot;</p>');
  });
});
