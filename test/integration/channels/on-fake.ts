// One platform adapter started against its protocol fake, for the tests that drive an adapter directly
// (approval cards, the channel contract), and a host that records what the adapter hands it.
import { createDiscordAdapter } from '../../../channels/discord/discord-adapter.ts';
import { createSlackAdapter } from '../../../channels/slack/slack-adapter.ts';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import type { ChannelAdapter, ChannelHost, InboundEvent } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { type FakeDiscordServer, startFakeDiscordServer } from '../../fakes/discord-server.ts';
import { type FakeSlackServer, startFakeSlack } from '../../fakes/slack-server.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';

export interface OnFake<F> {
  fake: F;
  adapter: ChannelAdapter;
  /** Stops the adapter, then the fake (once; later calls wait on the first). */
  stop(): Promise<void>;
}

/** A host that accepts everything into one conversation and keeps the events (clear with `events.length = 0`). */
export function recordingHost(): { host: ChannelHost; events: InboundEvent[] } {
  const events: InboundEvent[] = [];
  const host: ChannelHost = {
    async receive(e) {
      events.push(e as InboundEvent);
      return { accepted: true, conversation: 'c' };
    },
  };
  return { host, events };
}

async function started<F>(
  fake: F,
  adapter: ChannelAdapter,
  host: ChannelHost,
  closeFake: () => Promise<void>,
): Promise<OnFake<F>> {
  let stopping: Promise<void> | undefined;
  // Once only: a later call (an afterEach after a failed start) waits on the first.
  const stop = () =>
    (stopping ??= (async () => {
      await adapter.stop();
      await closeFake();
    })());
  try {
    await adapter.start(host);
  } catch (err) {
    await stop();
    throw err;
  }
  return { fake, adapter, stop };
}

/** grammy long-polling the fake Bot API (bot token T1). */
export async function telegramOnFake(host: ChannelHost, alias: string): Promise<OnFake<FakeTelegram>> {
  const tg = await startFakeTelegram({ token: 'T1' });
  const adapter = createTelegramAdapter({
    alias,
    botToken: 'T1',
    apiBaseUrl: tg.url,
    logger: createSilentLogger(),
  });
  return started(tg, adapter, host, () => tg.close());
}

/** discord.js on the fake's gateway and REST. */
export async function discordOnFake(host: ChannelHost, alias: string): Promise<OnFake<FakeDiscordServer>> {
  const discord = await startFakeDiscordServer();
  const adapter = createDiscordAdapter({
    alias,
    botToken: discord.token,
    apiBaseUrl: discord.apiUrl,
    logger: createSilentLogger(),
  });
  return started(discord, adapter, host, () => discord.close());
}

/** Bolt in Socket Mode with thread replies; `tokens` names the xoxb-/xapp- pair. */
export async function slackSocketOnFake(
  host: ChannelHost,
  alias: string,
  tokens: string,
  handOverRetryDelaysMs?: readonly number[],
): Promise<OnFake<FakeSlackServer>> {
  const fake = await startFakeSlack();
  const adapter = createSlackAdapter({
    alias,
    botToken: `xoxb-${tokens}`,
    appToken: `xapp-${tokens}`,
    apiBaseUrl: fake.apiUrl,
    channelIds: [],
    threadReplies: true,
    logger: createSilentLogger(),
    ...(handOverRetryDelaysMs ? { handOverRetryDelaysMs } : {}),
  });
  return started(fake, adapter, host, async () => {
    await fake.socket.waitForNoSockets();
    await fake.close();
  });
}

/** A contract driver's start and stop over one of the above; `started` is handed each run's fake. */
export function startStop<F>(
  startOn: (host: ChannelHost) => Promise<OnFake<F>>,
  started: (fake: F) => void,
): { start(host: ChannelHost): Promise<ChannelAdapter>; stop(): Promise<void> } {
  let running: OnFake<F> | null = null;
  return {
    async start(host) {
      running = await startOn(host);
      started(running.fake);
      return running.adapter;
    },
    async stop() {
      await running?.stop();
      running = null;
    },
  };
}
