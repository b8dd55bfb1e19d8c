// The sessions pages over HTTP on real Redis: sign-in required, CSP headers, 1,000 sessions paged from the index,
// a 10,000-message transcript paged by LRANGE, delegation cards in the HTML, the abort route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { type AbortBus, createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createRunningTurns, runningTurnsKey } from '../../../src/fleet/running-turns.ts';
import { createSessionAbort } from '../../../src/fleet/session-abort.ts';
import { historyKeys } from '../../../src/session/history-store.ts';
import { PAGE_HEADERS } from '../../../src/web/page.ts';
import {
  ABORT_NOTHING,
  ABORT_SENT,
  RESULT_NOT_RECORDED,
} from '../../../src/web/sessions/session-page-messages.ts';
import { transcriptUrl } from '../../../src/web/sessions/session-url.ts';
import { type DashboardServer, startDashboard, TEST_WEB_USER } from '../../helpers/dashboard-server.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { longHistory, seedHistory, seedSessions } from '../../helpers/transcript-seed.ts';
import { waitFor } from '../../helpers/wait.ts';

const redis = testRedis();
const subscriber = testRedis();
const prefix = uniquePrefix('session-pages');
let bus: AbortBus;
let dash: DashboardServer;
let anon: DashboardServer;

beforeAll(async () => {
  bus = createAbortBus(redis, subscriber, prefix, createSilentLogger());
  const abortSession = createSessionAbort(createRunningTurns(redis, spaceOf(prefix)), bus);
  dash = await startDashboard({ redis, prefix, abortSession });
  anon = await startDashboard({ redis, prefix, abortSession, user: null });
  await seedSessions(redis, spaceOf(prefix), 1000);
  await seedHistory(redis, spaceOf(prefix), 'main', 'local.test:long:', longHistory(10_000));
});
afterAll(async () => {
  await dash.close();
  await anon.close();
  await bus.close();
  await deletePrefix(redis, prefix);
  await redis.quit();
  subscriber.disconnect();
});

const get = (path: string, s = dash) => fetch(`${s.url}${path}`);
const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

describe('sessions pages', () => {
  it('answer 401 to a request without a signed-in web user', async () => {
    expect((await get('/', anon)).status).toBe(401);
    expect((await get(transcriptUrl('main', 'local.test:long:'), anon)).status).toBe(401);
    expect((await get('/ui/sessions/stream', anon)).status).toBe(401);
    expect((await get(`${transcriptUrl('main', 'local.test:x:')}/stream`, anon)).status).toBe(401);
  });

  it('serve every page with the security headers and the CSRF meta tag', async () => {
    const res = await get('/');
    for (const [k, v] of Object.entries(PAGE_HEADERS)) expect(res.headers.get(k)).toBe(v);
    const body = await res.text();
    expect(body).toContain(`<meta name="csrf-token" content="${TEST_WEB_USER.csrf}">`);
    expect(body).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
  });

  it('list 1,000 sessions one page of 50 at a time, most recent first', async () => {
    const first = await (await get('/')).text();
    expect(count(first, /<tr class="session">/g)).toBe(50);
    expect(first).toContain('Showing 1–50 of 1001 conversations, most recent first.');
    expect(first).toContain('href="/?offset=50"');
    expect(first.length).toBeLessThan(120_000);
    const last = await (await get('/?offset=1000')).text();
    expect(count(last, /<tr class="session">/g)).toBe(1);
    expect(last).not.toContain('rel="next"');
  });

  it('shows a 10,000-message transcript newest page first, with older pages on request', async () => {
    const url = transcriptUrl('main', 'local.test:long:');
    const first = await (await get(url)).text();
    expect(first).toContain('Messages 9951–10000 of 10000 (newest page first).');
    expect(first.length).toBeLessThan(200_000);
    expect(first).toContain(`href="${url}?before=9950"`);
    // Exactly the last 50 entries (a tool result shows inside its call's card, not on its own).
    const shown = [...first.matchAll(/data-index="(\d+)"/g)].map((x) => Number(x[1]));
    expect(Math.min(...shown)).toBe(9950);
    expect(Math.max(...shown)).toBe(9999);
    const page2 = await (await get(`${url}?before=9950`)).text();
    expect(page2).toContain('Messages 9901–9950 of 10000 (newest page first).');
    const oldest = await (await get(`${url}?before=50`)).text();
    expect(oldest).toContain('Messages 1–50 of 10000');
    expect(oldest).not.toContain('class="older"');
  });

  it('renders delegation cards, escaped text and the missing-result line', async () => {
    const conv = 'local.test:cards:';
    await seedHistory(redis, spaceOf(prefix), 'main', conv, [
      JSON.stringify({ role: 'user', content: '<script>alert(1)</script> **hi**' }),
      JSON.stringify({
        role: 'assistant',
        content: '',
        toolCalls: [
          {
            id: 'a',
            name: 'delegate',
            arguments: { agent: 'helper', prompt: 'do <b>it</b>', context: 'ctx' },
          },
          { id: 'b', name: 'spawn_subagent', arguments: { prompt: 'never answered' } },
        ],
      }),
      JSON.stringify({
        role: 'tool',
        toolCallId: 'a',
        toolName: 'delegate',
        content: "[Agent 'helper' (custom/helper-model)]\nthe **answer**",
      }),
    ]);
    const body = await (await get(transcriptUrl('main', conv))).text();
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; <strong>hi</strong>');
    expect(body).toContain('<span class="targets">helper</span>');
    expect(body).toContain('do &lt;b&gt;it&lt;/b&gt;');
    expect(body).toContain('<strong>answer</strong>');
    expect(body).toContain('<details class="envelope-details"><summary>Details</summary>');
    expect(body).toContain('<dd class="served">custom/helper-model</dd>');
    expect(body).toContain(`<p class="missing">${RESULT_NOT_RECORDED}</p>`);
    expect(RESULT_NOT_RECORDED).toBe('Result not recorded');
  });

  it('aborts a running turn through the session abort, and says when nothing runs', async () => {
    const conv = 'local.test:busy:';
    await seedHistory(redis, spaceOf(prefix), 'main', conv, [JSON.stringify({ role: 'user', content: 'x' })]);
    const post = (headers: Record<string, string>) =>
      fetch(`${dash.url}${transcriptUrl('main', conv)}/abort`, { method: 'POST', headers });
    expect((await post({})).status).toBe(403); // the stand-in hook, like the real one, wants the CSRF header
    const csrf = { 'x-csrf-token': TEST_WEB_USER.csrf };
    expect(await (await post(csrf)).json()).toEqual({ aborted: false, message: ABORT_NOTHING });

    await redis.hset(
      runningTurnsKey(spaceOf(prefix), conv),
      conv,
      JSON.stringify({ runId: 'r1', workerId: 'w' }),
    );
    // The transcript page's stream, asked once (its slow refresh), says the turn runs.
    const frame = (await (await get(`${transcriptUrl('main', conv)}/stream`)).json()) as {
      running: string[];
    };
    expect(frame.running).toEqual([conv]);
    const controller = new AbortController();
    bus.register('session', conv, controller);
    expect(await (await post(csrf)).json()).toEqual({ aborted: true, message: ABORT_SENT });
    await waitFor(() => controller.signal.aborted, 5000, 'the abort to reach the turn');
  });

  it('answers 404 for an unknown session, and shows an emptied one (after /new) as empty', async () => {
    expect((await get(transcriptUrl('main', 'local.test:nothing:'))).status).toBe(404);
    const conv = 'local.test:emptied:';
    await seedHistory(redis, spaceOf(prefix), 'main', conv, [JSON.stringify({ role: 'user', content: 'x' })]);
    await redis.del(historyKeys(spaceOf(prefix), 'main', conv)[0]);
    const res = await get(transcriptUrl('main', conv));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('No stored messages.');
  });

  it('serves the page script as a JavaScript module asset', async () => {
    const res = await get('/assets/sessions.js');
    expect(res.headers.get('content-type')).toContain('text/javascript');
    expect((await get('/assets/..%2Fpage.ts')).status).toBe(404);
  });
});
