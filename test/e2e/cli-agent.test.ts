// `baton agent` as a real process: one turn through the fake model, answer on stdout, errors on stderr.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runtimeDenialText } from '../../src/approval/approval-messages.ts';
import { cronTexts } from '../../src/cron/cron-messages.ts';
import { type FakeModelServer, startFakeModelServer } from '../fakes/model-server.ts';
import { toolResultIn } from '../helpers/agent-harness.ts';
import { runCli } from '../helpers/cli.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.ts';

let server: FakeModelServer;
let dir: string;
const prefix = uniquePrefix('cli');
const redis = testRedis();

function writeConfig(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

const base = () => `
schema_version = 3

[redis]
url = "${REDIS_URL}"
prefix = "${prefix}"

[gateway]
data_dir = "${dir}"

[providers.models.custom.fake]
uri = "${server.openaiBaseUrl}"
model = "fake-model"
api_key = "\${FAKE_MODEL_KEY}"

[reliability]
provider_retries = 0

[risk_profiles.default]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
`;

beforeAll(async () => {
  server = await startFakeModelServer();
  dir = mkdtempSync(join(tmpdir(), 'baton-cli-'));
});
afterAll(async () => {
  await server.close();
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

describe('baton agent', () => {
  it('prints the final answer on stdout and exits 0', async () => {
    server.script([{ text: 'the answer is 42' }]);
    const cfg = writeConfig('ok.toml', base());
    const res = await runCli(['agent', '-c', cfg, '-a', 'main', '-m', 'question?'], {
      FAKE_MODEL_KEY: 'sk-test-123456',
    });
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe('the answer is 42\n');
    expect(res.code).toBe(0);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test-123456');
  });

  it('refuses a call that needs an operator decision with the runtime-denial text', async () => {
    server.script([
      { toolCalls: [{ id: 'w', name: 'file_write', arguments: { path: 'x.txt', content: 'y' } }] },
      { text: 'could not write' },
    ]);
    const cfg = writeConfig('deny.toml', base());
    const res = await runCli(['agent', '-c', cfg, '-a', 'main', '-m', 'write'], { FAKE_MODEL_KEY: 'k' });
    expect(res.code).toBe(0);
    expect(toolResultIn(server.requests[1]!, 'w')).toBe(`Error: ${runtimeDenialText('file_write')}`);
  });

  it("offers the cron tools, acting on the fleet's schedules", async () => {
    server.script([{ toolCalls: [{ id: 'l', name: 'cron_list', arguments: {} }] }, { text: 'listed' }]);
    const cfg = writeConfig(
      'cron.toml',
      base().replace('[risk_profiles.default]\n', '[risk_profiles.default]\nauto_approve = ["cron_list"]\n'),
    );
    const res = await runCli(['agent', '-c', cfg, '-a', 'main', '-m', 'my jobs?'], { FAKE_MODEL_KEY: 'k' });
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe('listed');
    expect(toolResultIn(server.requests[1]!, 'l')).toBe(cronTexts.none());
  });

  it('names an unknown agent clearly and exits non-zero', async () => {
    const cfg = writeConfig('unknown.toml', base());
    const res = await runCli(['agent', '-c', cfg, '-a', 'ghost', '-m', 'hi'], { FAKE_MODEL_KEY: 'k' });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('error: no agent configured under alias "ghost"\n');
  });

  it('reports a config error with its TOML path and never prints the secret', async () => {
    const cfg = writeConfig('bad.toml', `${base()}\n[runtime_profiles.r]\nmax_tool_iterations = 1.5\n`);
    const res = await runCli(['agent', '-c', cfg, '-a', 'main', '-m', 'hi'], {
      FAKE_MODEL_KEY: 'sk-very-secret',
    });
    expect(res.stderr).toContain(
      "Invalid config at 'runtime_profiles.r.max_tool_iterations': expected integer, found float",
    );
    expect(res.stderr).not.toContain('sk-very-secret');
  });

  it('says which environment variable is missing, in agent and config check', async () => {
    const cfg = writeConfig('env.toml', base());
    const text =
      "Invalid config at 'providers.models.custom.fake.api_key': environment variable FAKE_MODEL_KEY is not set";
    const res = await runCli(['agent', '-c', cfg, '-a', 'main', '-m', 'hi']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(text);
    const check = await runCli(['config', 'check', '-c', cfg]);
    expect(check.stdout).toContain(text);
    expect(check.code).toBe(1);
  });

  it('gives one clear line when Redis is unreachable', async () => {
    const cfg = writeConfig('noredis.toml', base().replace(REDIS_URL, 'redis://127.0.0.1:1'));
    const res = await runCli(['agent', '-c', cfg, '-a', 'main', '-m', 'hi'], { FAKE_MODEL_KEY: 'k' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^error: Cannot reach Redis at redis:\/\/127\.0\.0\.1:1.*redis-server/);
  });

  it('turns a model failure into a clear error on stderr', async () => {
    server.script([{ status: 500, body: 'upstream exploded' }]);
    const cfg = writeConfig('fail.toml', base());
    const res = await runCli(['agent', '-c', cfg, '-a', 'main', '-m', 'hi'], { FAKE_MODEL_KEY: 'k' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^error: All model providers\/models failed after 1 failure event\(s\)\. Events:\n/,
    );
    expect(res.stderr).not.toContain('upstream exploded');
    expect(res.stderr).not.toContain(server.url);
  });
});
