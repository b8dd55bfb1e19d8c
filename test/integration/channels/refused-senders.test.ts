// A refused sender on real Redis (issue 21 #15): two gateways of one fleet refuse the same stranger three times;
// one warn line names the exact [peer_groups] entry that admits them (their id, not their username), the chat
// gets no answer, and the dashboard's list holds the sender, read back validated.
import { afterAll, describe, expect, it } from 'vitest';
import { createChannelHost } from '../../../src/channel-host/host.ts';
import { createLogger, createSilentLogger } from '../../../src/core/logger.ts';
import { createRefusedSenders, refusedSendersKeys } from '../../../src/fleet/refused-senders.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const redis = testRedis();
const prefix = uniquePrefix('refused');
afterAll(async () => {
  await deletePrefix(redis, prefix);
  await redis.quit();
});

const config = configFromToml(`schema_version = 3
[providers.models.custom.fake]
uri = "http://127.0.0.1:1/v1"
model = "m"
[risk_profiles.default]
[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
channels = ["telegram.main"]
[channels.telegram.main]
enabled = true
bot_token = "123456:abcdefghijklmnop"
[peer_groups.telegram-owners]
channel = "telegram.main"
agents = ["main"]
external_peers = ["@owner"]
`);

type Line = { level: number; msg: string; [k: string]: unknown };

function gateway() {
  const lines: Line[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (l: string) => lines.push(JSON.parse(l)) },
  });
  const accepted: string[] = [];
  const host = createChannelHost({
    config,
    logger,
    ingest: {
      accept: async (c) => {
        accepted.push(c);
        return 'first';
      },
      kick: async () => {},
    },
    refused: createRefusedSenders(redis, prefix, logger),
  });
  return { host, lines, accepted };
}

const message = (eventId: string) => ({
  kind: 'message' as const,
  channel: 'telegram.main',
  eventId,
  chat: '555',
  sender: { id: '987654321', username: 'stranger' },
  text: 'hello?',
  isDirect: true,
  addressedToBot: true,
  receivedAt: new Date().toISOString(),
});

describe('refused senders', () => {
  it('logs once across the fleet with the entry that admits them, and lists them for the dashboard', async () => {
    const a = gateway();
    const b = gateway();
    expect(await a.host.receive(message('1'))).toEqual({ accepted: false, reason: 'unauthorised' });
    expect(await b.host.receive(message('2'))).toEqual({ accepted: false, reason: 'unauthorised' });
    expect(await a.host.receive(message('3'))).toEqual({ accepted: false, reason: 'unauthorised' });
    expect([...a.accepted, ...b.accepted]).toEqual([]);

    const warns = [...a.lines, ...b.lines].filter((l) => l.level === 40);
    expect(warns).toHaveLength(1);
    expect(warns[0]).toMatchObject({
      channel: 'telegram.main',
      user_id: '987654321',
      username: 'stranger',
      agent: 'main',
      peer_groups_entry:
        '[peer_groups.telegram-owners]\nchannel = "telegram.main"\nagents = ["main"]\nexternal_peers = ["@owner", "987654321"]',
    });
    expect(warns[0]!.msg).toBe(
      `message refused: no peer group lets telegram.main user 987654321 (@stranger) talk to agent 'main'; to admit them, add "987654321" to external_peers of [peer_groups.telegram-owners] as in peer_groups_entry (or use Admit on the dashboard's Refused senders page). Logged once a day per sender and channel.`,
    );

    const store = createRefusedSenders(redis, prefix, createSilentLogger());
    const listed = await store.list(10);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      channel: 'telegram.main',
      agent: 'main',
      user_id: '987654321',
      username: 'stranger',
      chat: '555',
      is_direct: true,
    });
    expect(listed[0]!.last_refused_at).toBeGreaterThan(Date.now() - 60_000);

    // Admitted (or forgotten), a later refusal is news again.
    await store.forget('telegram.main', '987654321');
    expect(await store.list(10)).toEqual([]);
    await b.host.receive(message('4'));
    expect([...a.lines, ...b.lines].filter((l) => l.level === 40)).toHaveLength(2);
  });

  it('skips a damaged record when reading the list back', async () => {
    const keys = refusedSendersKeys(prefix);
    const member = JSON.stringify(['telegram.main', 'bad']);
    await redis.zadd(keys.list, Date.now() + 1000, member);
    await redis.hset(keys.records, member, '{"channel":"telegram.main"}');
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', destination: { write: (l: string) => lines.push(l) } });
    const listed = await createRefusedSenders(redis, prefix, logger).list(10);
    expect(listed.map((s) => s.user_id)).toEqual(['987654321']);
    expect(lines.join('')).toContain('unreadable refused sender skipped');
  });
});
