// The channel host reads the live config per event: a reload that changes [peer_groups] applies to the next
// message, with no restart of the gateway.
import { describe, expect, it } from 'vitest';
import { createChannelHost } from '../../../src/channel-host/host.ts';
import { createLiveConfig } from '../../../src/config/live-config.ts';
import type { BatonConfig } from '../../../src/config/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const toml = (peer: string) => `
[risk_profiles.p]

[agents.main]
model_provider = "custom.m"
risk_profile = "p"

[peer_groups.local]
channel = "local.test"
agents = ["main"]
external_peers = ["${peer}"]
`;

const config = (peer: string): BatonConfig => configFromToml(toml(peer));

let n = 0;
const message = (sender: string) => ({
  kind: 'message',
  channel: 'local.test',
  eventId: `e${++n}`,
  chat: 'c',
  sender: { id: sender },
  text: 'hi',
  isDirect: true,
  receivedAt: new Date().toISOString(),
});

describe('channel host after a reload', () => {
  it('authorises the next message against the reloaded peer_groups', async () => {
    const live = createLiveConfig(config('alice'));
    const host = createChannelHost({
      config: live.current(),
      currentConfig: live.current,
      logger: createSilentLogger(),
      routes: { 'local.test': 'main' },
      ingest: { accept: async () => 'first', kick: async () => {} },
    });
    expect(await host.receive(message('bob'))).toMatchObject({ accepted: false, reason: 'unauthorised' });
    live.replace(config('bob'));
    expect(await host.receive(message('bob'))).toMatchObject({ accepted: true });
    expect(await host.receive(message('alice'))).toMatchObject({ accepted: false, reason: 'unauthorised' });
  });
});
