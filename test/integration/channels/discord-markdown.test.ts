// Discord replies pass the model's Markdown through (Discord renders it), never ping, and are chunked under 2000
// without splitting a fenced block. Real discord.js, real runtime, fake Discord.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCORD_MAX_MESSAGE_LENGTH } from '../../../channels/discord/discord-adapter.ts';
import { openFence } from '../../../src/channel-host/markdown/chunk.ts';
import { type FakeDiscordServer, startFakeDiscordServer } from '../../fakes/discord-server.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';

const ALICE = '100000000000000001';
const MD =
  '# Plan\n**bold** and `code` and [docs](https://example.com)\n```ts\nconst a = 1;\n```\n@everyone <b>hi</b>';
const CODE = Array.from({ length: 120 }, (_, i) => `    value_${i} = compute(${i})`);

let discord: FakeDiscordServer;
let h: RuntimeHarness;

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  const toml = runtimeToml(`
[channels.discord.test]
enabled = true
bot_token = "${discord.token}"
api_base_url = "${discord.apiUrl}"

[peer_groups.discord]
channel = "discord"
agents = ["main"]
external_peers = ["${ALICE}"]
`);
  h = await createRuntimeHarness('discord-markdown', toml, {
    platformChannels: true,
  });
});
afterAll(async () => {
  await h?.close();
  await discord?.close();
});

describe('discord markdown', () => {
  it('sends the Markdown as written, with no mention parsed', async () => {
    h.server.respond(() => ({ text: MD }));
    const before = discord.sent.length;
    discord.injectMessage({ content: 'format please', mentionBot: true });
    const reply = await discord.waitFor(
      () => discord.sent.slice(before).find((m) => m.content === MD),
      'the reply',
    );
    expect(reply.content).toBe(MD);
    const call = discord.calls.find(
      (c) => c.method === 'POST' && (c.body as { content?: string })?.content === MD,
    );
    expect((call?.body as { allowed_mentions?: unknown } | undefined)?.allowed_mentions).toEqual({
      parse: [],
    });
  });

  it('chunks a long fenced block under 2000, each chunk a whole code block', async () => {
    h.server.respond(() => ({ text: `Code:\n\`\`\`py\n${CODE.join('\n')}\n\`\`\`\nDone.` }));
    const before = discord.sent.length;
    discord.injectMessage({ content: 'long code', mentionBot: true });
    const chunks = await discord.waitFor(() => {
      const mine = discord.sent.slice(before);
      return mine.some((m) => m.content.includes('Done.')) ? mine.map((m) => m.content) : undefined;
    }, 'the last chunk');
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(DISCORD_MAX_MESSAGE_LENGTH);
      expect(openFence(c)).toBeNull();
    }
    for (const c of chunks.slice(1, -1)) expect(c.startsWith('```py\n')).toBe(true);
    for (const line of CODE) expect(chunks.join('\n')).toContain(line);
  });
});
