// The shared Markdown renderer (web chat and transcripts): no raw HTML, only http/https/mailto links, no images.
import { describe, expect, it } from 'vitest';
import { renderChatMarkdown } from '../../../src/web/markdown.ts';

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
