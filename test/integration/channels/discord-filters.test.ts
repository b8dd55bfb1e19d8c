// guild_ids / channel_ids on the real discord.js against the fake Discord: what the adapter hands to the host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../../channels/discord/discord-adapter.ts';
import type { ChannelAdapter, InboundEvent } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { type FakeDiscordServer, startFakeDiscordServer } from '../../fakes/discord-server.ts';
import { waitFor } from '../../helpers/wait.ts';

let discord: FakeDiscordServer;
beforeAll(async () => {
  discord = await startFakeDiscordServer();
});
afterAll(async () => {
  await discord?.close();
});

/** Starts an adapter with these filters, injects the messages, then a DM sentinel; returns the texts received. */
async function received(filters: { guildIds?: string[]; channelIds?: string[] }, inject: () => void) {
  const events: InboundEvent[] = [];
  const adapter: ChannelAdapter = createDiscordAdapter({
    alias: 'f',
    botToken: discord.token,
    apiBaseUrl: discord.apiUrl,
    logger: createSilentLogger(),
    ...filters,
  });
  await adapter.start({
    async receive(e) {
      events.push(e as InboundEvent);
      return { accepted: true, conversation: 'c' };
    },
  });
  try {
    inject();
    discord.injectMessage({ dmUserId: '42', content: 'sentinel dm' });
    await waitFor(
      () => events.some((e) => e.kind === 'message' && e.text === 'sentinel dm'),
      20_000,
      'sentinel',
    );
    return events.map((e) => (e.kind === 'message' ? e.text : e.actionId));
  } finally {
    await adapter.stop();
  }
}

describe('discord guild_ids and channel_ids', () => {
  it('serves a listed channel and the threads under it; DMs always pass', async () => {
    const texts = await received({ guildIds: [discord.guildId], channelIds: [discord.textChannelId] }, () => {
      discord.injectMessage({ content: 'in channel' });
      discord.injectMessage({ channelId: discord.threadId, content: 'in thread' });
    });
    expect(texts).toEqual(['in channel', 'in thread', 'sentinel dm']);
  });

  it('skips channels and guilds that are not listed', async () => {
    const texts = await received({ channelIds: ['1'] }, () => {
      discord.injectMessage({ content: 'unlisted channel' });
      discord.injectMessage({ channelId: discord.threadId, content: 'unlisted thread' });
    });
    expect(texts).toEqual(['sentinel dm']);
    const other = await received({ guildIds: ['1'] }, () =>
      discord.injectMessage({ content: 'unlisted guild' }),
    );
    expect(other).toEqual(['sentinel dm']);
  });
});
