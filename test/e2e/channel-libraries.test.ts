// A `baton start` loads only the channel libraries its config enables: a web-only process never loads grammy,
// discord.js or Bolt (they are large), and one with a Telegram channel loads grammy but neither of the others;
// nor does it load the `ai` package or the provider package of a type its config does not name.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.ts';
import { startProcess } from '../helpers/baton-process.ts';
import { CLI } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { fakeModelAgentToml, redisGatewayToml } from '../helpers/test-config.ts';

const RECORDER = join(import.meta.dirname, '..', 'helpers', 'record-packages.ts');
const CHANNEL_LIBRARIES = ['grammy', '@grammyjs/auto-retry', 'discord.js', '@slack/bolt'];
const redis = testRedis();
const prefix = uniquePrefix('channel-libs');
const dir = mkdtempSync(join(tmpdir(), 'baton-channel-libs-'));
let tg: FakeTelegram | undefined;

afterAll(async () => {
  await tg?.close();
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `baton start` with `channels` until it runs, stops it, and returns the npm packages it loaded. */
async function packagesLoaded(name: string, channels: string): Promise<string[]> {
  const path = join(dir, `${name}.toml`);
  const record = join(dir, `${name}.packages`);
  writeFileSync(
    path,
    `${redisGatewayToml(prefix, await freePort(), join(dir, name))}${fakeModelAgentToml('http://127.0.0.1:9/v1')}${channels}`,
  );
  const p = startProcess(process.execPath, ['--import', RECORDER, CLI, 'start', '--config', path], {
    env: { BATON_RECORD_PACKAGES: record },
    label: `baton start (${name})`,
  });
  await p.waitFor(/baton gateway \+ worker running/, 30_000);
  p.kill('SIGTERM');
  await p.exited;
  return existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : [];
}

describe('channel libraries', () => {
  it('a web-only baton start loads none of grammy, discord.js and Bolt', async () => {
    const loaded = await packagesLoaded(
      'web',
      `
[channels.web.main]
enabled = true

[peer_groups.web]
channel = "web.main"
agents = ["main"]
external_peers = ["web:local"]
`,
    );
    expect(loaded).toContain('ioredis'); // the recorder saw the process's packages
    expect(loaded.filter((p) => CHANNEL_LIBRARIES.includes(p))).toEqual([]);
    // Nor the `ai` package (baton calls the provider packages itself), nor a provider package at all: its agent
    // is on a `custom` provider, which baton's own client serves (providers/compatible-chat.ts).
    const sdkPackages = ['ai', '@ai-sdk/anthropic', '@ai-sdk/openai', '@ai-sdk/openai-compatible'];
    expect(loaded.filter((p) => sdkPackages.includes(p))).toEqual([]);
    // The web chat's Markdown renderer loads with the first message it renders (web/markdown.ts).
    expect(loaded).not.toContain('markdown-it');
  }, 60_000);

  it('a Telegram channel loads grammy, and still neither discord.js nor Bolt', async () => {
    tg = await startFakeTelegram({ token: 'T' });
    const loaded = await packagesLoaded(
      'telegram',
      `
[channels.telegram.home]
enabled = true
bot_token = "T"
api_base_url = "${tg.url}"

[peer_groups.tg]
channel = "telegram.home"
agents = ["main"]
external_peers = ["*"]
`,
    );
    expect(loaded).toContain('grammy');
    expect(loaded.filter((p) => p === 'discord.js' || p === '@slack/bolt')).toEqual([]);
  }, 60_000);
});
