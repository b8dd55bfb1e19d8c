// Who is asked and for how long (approvals.md §6, §7, §13), against real Redis: the route's channel and recipient,
// the expiry's minimum, a channel that is down before or during the wait, and the §14 line of unrecorded outcomes.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { createApprovalWaiter } from '../../../src/approval/approval-waiter.ts';
import { type AskContext, createChannelAsker } from '../../../src/approval/channel-asker.ts';
import type { Recipient } from '../../../src/channel-host/types.ts';
import type { ApprovalRoute } from '../../../src/config/types.ts';
import { dialectOf } from '../../../src/roles/platforms.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';

const prefix = uniquePrefix('channel-asker');
const redis = testRedis();
const { logger, lines } = capturingLogger();
const store = createApprovalStore({ redis, prefix, logger });
const waiter = createApprovalWaiter({ store, redis, logger, timing: { pollMs: 50 } });

const config = configFromToml(`
[channels.telegram.ops]
enabled = true
bot_token = "t"
approval_timeout_secs = 7

[risk_profiles.default]

[agents.main]
model_provider = "openai.x"
risk_profile = "default"
`);

const live = new Set<string>(['telegram.ops']);
const posts: { channel: string; id: string; to: Recipient }[] = [];
const deps = {
  config: () => config,
  store,
  waiter,
  delivery: {
    post: async (channel: string, id: string, to: Recipient) => void posts.push({ channel, id, to }),
    edit: async () => {},
  },
  isLive: async (key: string) => live.has(key),
  dialectOf,
  logger,
  presenceCheckMs: 50,
};
const route = (over: Partial<ApprovalRoute> = {}): ApprovalRoute => ({
  approver_channel: 'telegram.ops',
  approver_recipient: '-100:5',
  on_no_approver: 'deny',
  timeout_secs: 60,
  ...over,
});
const ctx = (over: Partial<AskContext> = {}): AskContext => ({
  agent: 'main',
  runId: 'r1',
  rootRunId: 'r1',
  ...over,
});
const signal = new AbortController().signal;
const decisionLines = () => lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'approval decided');

afterEach(() => {
  posts.length = 0;
  lines.length = 0;
  live.clear();
  live.add('telegram.ops');
});
afterAll(async () => {
  await waiter.close();
  await deletePrefix(redis, prefix);
  await redis.quit();
});

describe('the channel asker', () => {
  it('has no approver path without a route or an originating chat (a non-interactive gate)', () => {
    expect(createChannelAsker(deps, ctx())).toBeNull();
    expect(
      createChannelAsker(
        deps,
        ctx({ routeOnly: true, origin: { channel: 'local.test', chat: 'c', group: false } }),
      ),
    ).toBeNull();
  });

  it('posts to the route recipient (chat:thread) and waits min(max(timeout_secs, 1), approval_timeout_secs, the run)', async () => {
    const asker = createChannelAsker(deps, ctx({ route: route({ timeout_secs: 0 }) }))!;
    const answer = asker.ask('file_write', { path: 'x' }, signal);
    await waitFor(() => posts.length === 1, 10_000, 'the post');
    expect(posts[0]).toMatchObject({
      channel: 'telegram.ops',
      to: { channel: 'telegram.ops', chat: '-100', thread: '5' },
    });
    const rec = (await store.get(posts[0]!.id))!;
    expect(rec.expires_at - rec.created_at).toBe(1000);
    expect(rec).toMatchObject({
      route_prompt: true,
      group: true,
      destination: { chat: '-100', thread: '5' },
    });
    expect(await answer).toBe('timed_out');

    const capped = createChannelAsker(deps, ctx({ route: route({ timeout_secs: 600 }) }))!;
    const stop = new AbortController();
    const pending = capped.ask('file_write', {}, stop.signal);
    await waitFor(() => posts.length === 2, 10_000, 'the second post');
    const rec2 = (await store.get(posts[1]!.id))!;
    expect(rec2.expires_at - rec2.created_at).toBe(7000);
    stop.abort();
    expect(await pending).toBe('cancelled');

    const bounded = createChannelAsker(deps, ctx({ route: route(), deadline: Date.now() + 2000 }))!;
    const short = bounded.ask('file_write', {}, signal);
    await waitFor(() => posts.length === 3, 10_000, 'the third post');
    const rec3 = (await store.get(posts[2]!.id))!;
    expect(rec3.expires_at - rec3.created_at).toBeLessThanOrEqual(2000);
    expect(await short).toBe('timed_out');
  });

  it('a route channel that is not live is unavailable: nothing is written or posted, the §14 line says so', async () => {
    live.clear();
    const asker = createChannelAsker(deps, ctx({ route: route() }))!;
    expect(await asker.ask('file_write', { token: 'sk-x' }, signal)).toBe('unavailable');
    expect(posts).toEqual([]);
    expect(decisionLines()).toEqual([
      expect.objectContaining({
        approval_id: null,
        decision: 'deny',
        decided_by: null,
        source: 'unavailable',
        args_summary: 'token: [redacted]',
      }),
    ]);
    expect(lines.some((l) => l.includes('approval route fail-closed: denying gated tool'))).toBe(true);
  });

  it('a route without a recipient and no originating chat is unreachable', async () => {
    const asker = createChannelAsker(deps, ctx({ route: route({ approver_recipient: '' }) }))!;
    expect(await asker.ask('file_write', {}, signal)).toBe('unreachable');
    expect(decisionLines()[0]).toMatchObject({ source: 'unreachable' });
  });

  it('an independent child never falls back to any chat, even with inherit-originator', async () => {
    live.clear();
    const asker = createChannelAsker(
      deps,
      ctx({
        route: route({ on_no_approver: 'inherit-originator' }),
        routeOnly: true,
        origin: { channel: 'local.test', chat: 'c', group: false },
      }),
    )!;
    expect(await asker.ask('file_write', {}, signal)).toBe('unavailable');
    expect(posts).toEqual([]);
  });

  it('the channel going down while the prompt is pending ends the wait as unreachable (record undeliverable)', async () => {
    const asker = createChannelAsker(deps, ctx({ route: route() }))!;
    const answer = asker.ask('file_write', {}, signal);
    await waitFor(() => posts.length === 1, 10_000, 'the post');
    live.clear();
    expect(await answer).toBe('unreachable');
    expect(await store.get(posts[0]!.id)).toMatchObject({ status: 'undeliverable', source: 'unreachable' });
  });
});
