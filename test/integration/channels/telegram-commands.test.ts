// The Telegram command menu: the adapter lists the chat commands with setMyCommands when it starts.
import { afterEach, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import type { ChannelAdapter } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';

let tg: FakeTelegram | undefined;
let adapter: ChannelAdapter | undefined;
afterEach(async () => {
  await adapter?.stop();
  await tg?.close();
});

it('calls setMyCommands with /new, /stop and /status at start', async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  adapter = createTelegramAdapter({
    alias: 'home',
    botToken: 'T1',
    apiBaseUrl: tg.url,
    logger: createSilentLogger(),
  });
  await adapter.start({ receive: async () => ({ accepted: true, conversation: 'c' }) });
  const call = await tg.waitForCall((c) => c.method === 'setMyCommands', 10_000, 'setMyCommands');
  const commands = (call.params as { commands: Array<{ command: string; description: string }> }).commands;
  expect(commands.map((c) => c.command)).toEqual(['new', 'stop', 'status']);
  for (const c of commands) expect(c.description.length).toBeGreaterThan(0);
});
