// The Discord adapter against the real API: connect, send, edit, and read the message back over REST.
// Runs only with DISCORD_BOT_TOKEN and BATON_LIVE_DISCORD_CHANNEL (a channel id the bot may post in).
import { describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../channels/discord/discord-adapter.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { ignoringHost, liveEnv, liveNonce } from '../helpers/live-env.ts';

const live = liveEnv(['DISCORD_BOT_TOKEN', 'BATON_LIVE_DISCORD_CHANNEL']);
const token = live.vars.DISCORD_BOT_TOKEN ?? '';
const channel = live.vars.BATON_LIVE_DISCORD_CHANNEL ?? '';
const API = 'https://discord.com/api';

describe.skipIf(live.skipReason)(`live Discord ${live.skipReason ? `(${live.skipReason})` : ''}`, () => {
  it('connects, sends a message and edits it through the real API', async () => {
    const adapter = createDiscordAdapter({
      alias: 'live',
      botToken: token,
      apiBaseUrl: API,
      channelIds: [channel],
      logger: createSilentLogger(),
    });
    await adapter.start(ignoringHost);
    try {
      const text = liveNonce();
      const ref = await adapter.send({ channel: 'discord.live', chat: channel }, { text });
      await adapter.edit(ref, { text: `${text} (edited)` });
      const url = `${API}/v10/channels/${ref.chat}/messages/${ref.messageId}`;
      const headers = { authorization: `Bot ${token}` };
      const res = await fetch(url, { headers });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { content: string }).content).toBe(`${text} (edited)`);
      await fetch(url, { method: 'DELETE', headers }).catch(() => {});
    } finally {
      await adapter.stop();
    }
  });
});
