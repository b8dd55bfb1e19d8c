// Who may answer an approval from the dashboard: a [peer_groups] entry on the web channel that lists the gated
// agent and the web user (as <login>, web:<login> or "*"); groups of other channels never count.
import { describe, expect, it } from 'vitest';
import type { PeerGroup } from '../../../src/config/types.ts';
import { webMayDecide } from '../../../src/web/ops/approval-decide.ts';
import type { WebUser } from '../../../src/web/ops/web-user.ts';

const user = (login: string): WebUser => ({
  login,
  peerId: `web:${login}`,
  sessionId: 's',
  chatId: 'c',
  csrf: 'x',
  local: false,
});
const groups = (...gs: Omit<PeerGroup, 'name'>[]) => ({
  peer_groups: Object.fromEntries(gs.map((g, i) => [`g${i}`, { name: `g${i}`, ...g }])),
});

describe('webMayDecide', () => {
  it('accepts a web group (bare type or web.<alias>) listing the agent and the user in any of its forms', () => {
    for (const peer of ['alice', 'web:alice', '@Alice', '*'])
      for (const channel of ['web', 'web.main', ' web '])
        expect(
          webMayDecide(
            groups({ channel, agents: ['writer'], external_peers: [peer] }),
            'writer',
            user('alice'),
          ),
        ).toBe(true);
  });

  it('refuses another agent, another user, an empty list, and groups of other channels', () => {
    const g = { channel: 'web', agents: ['writer'], external_peers: ['alice'] };
    expect(webMayDecide(groups(g), 'main', user('alice'))).toBe(false);
    expect(webMayDecide(groups(g), 'writer', user('bob'))).toBe(false);
    expect(webMayDecide(groups({ ...g, external_peers: [] }), 'writer', user('alice'))).toBe(false);
    for (const channel of ['telegram', 'local.test', 'webhook', 'webx.main'])
      expect(webMayDecide(groups({ ...g, channel, external_peers: ['*'] }), 'writer', user('alice'))).toBe(
        false,
      );
  });
});
