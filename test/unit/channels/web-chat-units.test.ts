// Tests: the web chat's pure parts: safe Markdown, peer identities in peer groups (config.md §12.4, §13), the
// startup line with the chat URL.
import { describe, expect, it } from 'vitest';
import { isAuthorised } from '../../../src/channel/peer-authz.ts';
import { startupSummary } from '../../../src/runtime/startup-summary.ts';
import { renderChatMarkdown, renderChatPlain } from '../../../src/web/markdown.ts';
import { configOf, load } from '../config/load-helper.ts';

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

describe('web peer identities in peer groups', () => {
  const groups = (channel: string, peers: string[]) => ({
    peer_groups: { g: { name: 'g', channel, agents: ['main'], external_peers: peers } },
  });
  it('matches web:local and * for channel "web" and "web.<alias>"', () => {
    for (const channel of ['web', 'web.main']) {
      expect(isAuthorised(groups(channel, ['web:local']), 'web.main', 'main', { id: 'web:local' })).toBe(
        true,
      );
      expect(isAuthorised(groups(channel, ['*']), 'web.main', 'main', { id: 'web:alice' })).toBe(true);
      expect(isAuthorised(groups(channel, ['web:local']), 'web.main', 'main', { id: 'web:alice' })).toBe(
        false,
      );
    }
    expect(isAuthorised(groups('web.other', ['*']), 'web.main', 'main', { id: 'web:local' })).toBe(false);
    expect(isAuthorised(groups('telegram', ['*']), 'web.main', 'main', { id: 'web:local' })).toBe(false);
  });
});

describe('startup summary', () => {
  it('prints the URL of each started web chat', () => {
    const config = configOf(
      load(
        'schema_version = 3\n[risk_profiles.p]\n[agents.a]\nrisk_profile = "p"\n[channels.web.main]\nenabled = true\n',
      ),
    );
    const lines = startupSummary(
      config,
      'gateway + worker',
      ['web.main'],
      [],
      undefined,
      'http://127.0.0.1:8080',
    );
    expect(lines).toContain('channel web.main: connected');
    expect(lines).toContain('open http://127.0.0.1:8080/chat/main to chat');
    const off = startupSummary({ ...config, channels: {} }, 'x', [], []);
    expect(off.some((l) => l.includes('/chat/'))).toBe(false);
  });
});
