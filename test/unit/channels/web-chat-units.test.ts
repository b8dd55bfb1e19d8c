// Tests: the web chat's pure parts: peer identities in peer groups (config.md §12.4, §13) and the startup line
// with the chat URL. Its Markdown renderer is tested in test/unit/web/markdown.test.ts.
import { describe, expect, it } from 'vitest';
import { isAuthorised } from '../../../src/channel-host/peer-authz.ts';
import { startupSummary } from '../../../src/roles/startup-summary.ts';
import { configFromToml } from '../../helpers/test-config.ts';

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
    const config = configFromToml(
      'schema_version = 3\n[risk_profiles.p]\n[agents.a]\nrisk_profile = "p"\n[channels.web.main]\nenabled = true\n',
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
