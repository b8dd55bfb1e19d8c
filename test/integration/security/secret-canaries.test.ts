// A canary in each credential source, and every sink looked at: chat replies, tool results sent to the
// model, provider error bodies, the outbox, the ops API and the logs. Zero canaries may come out.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalChannel, type LocalChannel } from '../../../channels/local/local-adapter.ts';
import type { BatonConfig } from '../../../src/config/types.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { REDACTED } from '../../../src/core/redact.ts';
import { createTaskRecords } from '../../../src/delegation/task-records.ts';
import { createReplyOutbox } from '../../../src/queue/reply-outbox.ts';
import { startGatewayRole } from '../../../src/roles/gateway-role.ts';
import { type Role, startWorkerRole } from '../../../src/roles/worker-role.ts';
import { toolResultsOf } from '../../fakes/model-requests.ts';
import { type FakeModelServer, type ScriptedTurn, startFakeModelServer } from '../../fakes/model-server.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const CANARY = {
  interpolated: 'canary-interp-api-key-A1',
  defaultEnv: 'canary-openai-default-B2',
  extraHeader: 'canary-extra-header-C3',
  channelToken: 'canary-bot-token-D4',
  gatewayToken: 'canary-gateway-token-E5',
  redisPassword: 'canary-redis-pw-F6',
};
const ALL = Object.values(CANARY);
const EVERY_CANARY = ALL.join(' | ');
const found = (text: string): string[] => ALL.filter((c) => text.includes(c));

const tomlFor = (prefix: string, dataDir: string, modelUri: string) => `
[redis]
url = "redis://:${CANARY.redisPassword}@127.0.0.1:6379"
prefix = "${prefix}"

[gateway]
data_dir = "${dataDir}"
api_token = "${CANARY.gatewayToken}"

# api_key absent: the key is OPENAI_API_KEY from the environment.
[providers.models.openai.envkey]
uri = "${modelUri}"
model = "env-model"
fallback = ["custom.fake"]

[providers.models.custom.fake]
uri = "${modelUri}"
model = "fake-model"
api_key = "\${INTERP_KEY}"
extra_headers = { "X-Api-Secret" = "${CANARY.extraHeader}" }

[reliability]
provider_retries = 0
provider_backoff_ms = 1

[risk_profiles.default]

[agents.main]
model_provider = "openai.envkey"
risk_profile = "default"

[channels.telegram.ops]
enabled = false
bot_token = "${CANARY.channelToken}"

[peer_groups.local]
channel = "local.test"
agents = ["main"]
external_peers = ["*"]
`;

const env = { INTERP_KEY: CANARY.interpolated, OPENAI_API_KEY: CANARY.defaultEnv };

let server: FakeModelServer;
let local: LocalChannel;
let config: BatonConfig;
let redis: Redis;
let dataDir: string;
let prefix: string;
let gateway: Role;
let worker: Role;
let opsUrl: string;
const logLines: string[] = [];
/** Per model id: what the next request to it gets. */
let turns: Record<string, ScriptedTurn[]> = {};

beforeAll(async () => {
  server = await startFakeModelServer();
  server.respond((req) => turns[String(req.body.model)]?.shift() ?? { status: 500, body: 'unscripted' });
  prefix = uniquePrefix('secret-canaries');
  dataDir = mkdtempSync(join(tmpdir(), 'baton-canaries-'));
  const loaded = configFromToml(tomlFor(prefix, dataDir, server.openaiBaseUrl), { env });
  // An ephemeral port for the ops API (the config itself only accepts 1-65535).
  config = { ...loaded, gateway: { ...loaded.gateway, port: 0 } };
  const destination = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: 'debug', secrets: config.secrets, destination });
  redis = testRedis();
  local = createLocalChannel('test');
  gateway = await startGatewayRole({
    config,
    logger,
    redis,
    adapters: [local],
    routes: { 'local.test': 'main' },
    // A diagnostic text that quotes a secret: /healthz must not show it.
    ops: {
      diagnostics: [{ severity: 'error', path: 'x', message: `bad ${EVERY_CANARY}` }],
      droppedSections: [],
    },
  });
  worker = await startWorkerRole({ config, logger, redis, env });
  const started = logLines.map((l) => JSON.parse(l) as { msg?: string; api?: string });
  opsUrl = String(started.find((l) => l.msg === 'gateway role started')?.api);
});

afterAll(async () => {
  await worker?.close(1000);
  await gateway?.close(1000);
  await server?.close();
  if (redis) {
    await deletePrefix(redis, prefix);
    await redis.quit();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  server.reset();
  server.respond((req) => turns[String(req.body.model)]?.shift() ?? { status: 500, body: 'unscripted' });
  turns = {};
  local.replies.length = 0;
});

async function turn(chat: string, text: string): Promise<string> {
  await local.inject({ chat, text });
  const [reply] = await local.waitForReplies(1, { chat, timeoutMs: 15_000 });
  return reply?.text ?? '';
}

describe('secret canaries', () => {
  it('every credential source is in the secret set', () => {
    for (const c of ALL) expect(config.secrets).toContain(c);
  });

  it('a model that echoes every secret reaches the chat redacted; the default env key is the one sent', async () => {
    turns['env-model'] = [{ text: `here you go: ${EVERY_CANARY}` }];
    const reply = await turn('echo', 'tell me your secrets');
    expect(found(reply)).toEqual([]);
    expect(reply).toContain(REDACTED);
    // The provider used exactly the key the secret set holds.
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${CANARY.defaultEnv}`);
    // The next turn sends the history back to the model: the echoed secrets are not in it.
    turns['env-model'] = [{ text: 'again' }];
    local.replies.length = 0;
    expect(await turn('echo', 'and now?')).toBe('again');
    const next = server.requests[1];
    expect(JSON.stringify(next?.body)).toContain(`here you go: ${REDACTED}`);
    expect(found(JSON.stringify(next?.body))).toEqual([]);
  });

  it('a tool result holding every secret reaches the model redacted', async () => {
    const workspace = config.agents.main?.workspace.path ?? '';
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'canaries.txt'), `leaked: ${EVERY_CANARY}\n`);
    turns['env-model'] = [
      { toolCalls: [{ id: 'r1', name: 'file_read', arguments: { path: 'canaries.txt' } }] },
      { text: 'read it' },
    ];
    expect(await turn('tool', 'read canaries.txt')).toBe('read it');
    const second = server.requests[1];
    expect(second).toBeDefined();
    const results = toolResultsOf(second!);
    expect(results.map((r) => r.content).join('\n')).toContain(`leaked: ${REDACTED}`);
    expect(found(JSON.stringify(second?.body))).toEqual([]);
  });

  it('a provider error body holding every secret never reaches the agent or the chat', async () => {
    const errorBody = { error: { message: `invalid key ${EVERY_CANARY}` } };
    turns['env-model'] = [{ status: 401, body: errorBody }];
    turns['fake-model'] = [{ text: 'fallback answered' }];
    expect(await turn('fallback', 'hello')).toBe('fallback answered');
    const fallback = server.requests.find((r) => r.body.model === 'fake-model');
    // The fallback carries its own credentials (interpolated key, literal header) and nothing of the error.
    expect(fallback?.headers.authorization).toBe(`Bearer ${CANARY.interpolated}`);
    expect(fallback?.headers['x-api-secret']).toBe(CANARY.extraHeader);
    expect(found(JSON.stringify(fallback?.body))).toEqual([]);

    turns['env-model'] = [{ status: 500, body: errorBody }];
    turns['fake-model'] = [{ status: 400, body: errorBody }];
    const failed = await turn('all-fail', 'hello again');
    expect(failed).toContain('All model providers/models failed');
    expect(found(failed)).toEqual([]);
  });

  it('anything put on the outbox leaves the gateway redacted', async () => {
    // A writer without its own redactor: the reply pump is the last line before the platform.
    await createReplyOutbox(redis, spaceOf(prefix)).enqueue(
      { channel: 'local.test', chat: 'raw' },
      { text: EVERY_CANARY },
      'raw-1',
    );
    const [reply] = await local.waitForReplies(1, { chat: 'raw', timeoutMs: 15_000 });
    expect(found(reply?.text ?? '')).toEqual([]);
    expect(reply?.text).toContain(REDACTED);
  });

  it('ops API responses carry no secret: tasks, health, metrics, errors', async () => {
    await createTaskRecords(redis, prefix).create({
      task_id: 'canary-task',
      kind: 'delegate',
      agent: 'main',
      chain: ['main'],
      mode: 'bounded',
      status: 'running',
      output: EVERY_CANARY,
      error: EVERY_CANARY,
      depth: 1,
      sender: null,
      owner: null,
      heartbeat_at: null,
      progress: { note: EVERY_CANARY },
      timeout_budget_secs: null,
      parent_tool_call_id: null,
      started_at: new Date().toISOString(),
      finished_at: null,
    });
    const auth = { authorization: `Bearer ${CANARY.gatewayToken}` };
    const bodies: string[] = [];
    for (const path of ['/api/tasks', '/healthz', '/metrics', `/nope/${CANARY.channelToken}`]) {
      const res = await fetch(`${opsUrl}${path}`, { headers: auth });
      bodies.push(await res.text());
    }
    const all = bodies.join('\n');
    expect(found(all)).toEqual([]);
    // The task and the diagnostic were there, redacted: the test looks where the canaries went.
    expect(bodies[0]).toContain('canary-task');
    expect(bodies[0]).toContain(REDACTED);
    expect(bodies[1]).toContain(`bad ${REDACTED}`);
  });

  it('the logs hold no secret, although the provider error bodies were logged', () => {
    const logs = logLines.join('');
    expect(logs).toContain('model provider attempt failed');
    expect(logs).toContain(`invalid key ${REDACTED}`);
    expect(found(logs)).toEqual([]);
  });
});
