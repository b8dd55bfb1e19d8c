// Config reload in a role process, on real Redis: a deployment-wide request (pub/sub) or SIGHUP re-reads the
// file; a file with any error is rejected whole with every diagnostic logged; a good one replaces the live
// config, except the restart-only keys, which keep their running values with one warning each.
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reloadCommand } from '../../../src/cli/reload-command.ts';
import { loadConfigText } from '../../../src/config/index.ts';
import { createLiveConfig, type LiveConfig } from '../../../src/config/live-config.ts';
import {
  ackApplied,
  ackRejected,
  reloadAcknowledged,
  reloadApplied,
  reloadRejected,
  reloadRestartOnly,
} from '../../../src/config/reload-messages.ts';
import type { BatonConfig } from '../../../src/config/types.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { requestDeploymentReload } from '../../../src/fleet/reload-bus.ts';
import { startConfigReload } from '../../../src/roles/config-reload.ts';
import { watchStopSignals } from '../../../src/roles/stop-signals.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { configFromToml } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';

const redis = testRedis();
const prefix = uniquePrefix('reload');
const dir = mkdtempSync(join(tmpdir(), 'baton-reload-'));
const path = join(dir, 'baton.toml');

const base = (opts: { mode?: string; prefix?: string; concurrency?: number; extra?: string } = {}) => `
[redis]
prefix = "${opts.prefix ?? prefix}"

[gateway]
data_dir = "${dir}"

[worker]
concurrency = ${opts.concurrency ?? 4}

[risk_profiles.ops]
delegation_policy = { mode = "${opts.mode ?? 'forbidden'}" }

[agents.main]
model_provider = "custom.m"
risk_profile = "ops"

[agents.helper]
model_provider = "custom.m"
risk_profile = "ops"
${opts.extra ?? ''}`;

const logs: Record<string, unknown>[] = [];
const said: string[] = [];
const signalSource = new EventEmitter();
let live: LiveConfig;
let initial: BatonConfig;
let stopReload: () => Promise<void>;
const stopSignals = watchStopSignals((l) => said.push(l), signalSource);

beforeAll(async () => {
  writeFileSync(path, base());
  initial = configFromToml(base());
  live = createLiveConfig(initial);
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      cb();
    },
  });
  const logger = createLogger({ level: 'info', destination: sink });
  const r = await startConfigReload({
    role: 'worker',
    configPath: path,
    env: {},
    live,
    logger,
    redis,
    signals: stopSignals,
    say: (l) => said.push(l),
  });
  stopReload = r.close;
});

afterAll(async () => {
  await stopReload();
  stopSignals.dispose();
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  logs.length = 0;
});

const messages = () => logs.map((l) => String(l.msg));

describe('a reload with errors', () => {
  it('over pub/sub: rejected whole, the running config stays, every diagnostic logged with its TOML path', async () => {
    const broken = base({
      mode: 'sometimes',
      extra:
        '\n[agents.third]\nmodel_provider = "custom.m"\nrisk_profile = "missing"\n\n[memory]\nbackend = "x"\n',
    });
    writeFileSync(path, broken);
    const before = live.current();
    const res = await requestDeploymentReload(redis, prefix);
    expect(res.reached).toBe(1);
    expect(res.acks).toHaveLength(1);
    const errors = [
      `Invalid config at 'risk_profiles.ops.delegation_policy.mode': expected one of "forbidden", "allow", found "sometimes"`,
      'agents.main.risk_profile must reference a configured [risk_profiles.<alias>] entry',
      'agents.helper.risk_profile must reference a configured [risk_profiles.<alias>] entry',
      'agents.third.risk_profile must reference a configured [risk_profiles.<alias>] entry',
    ];
    expect(res.acks[0]).toMatchObject({ ok: false, role: 'worker', changed: [] });
    expect([...(res.acks[0]?.errors ?? [])].sort()).toEqual([...errors].sort());
    expect(live.current()).toBe(before);
    // One line per diagnostic, errors and warnings alike, each with its path; then the rejection.
    for (const e of errors) expect(messages()).toContain(e);
    expect(logs.find((l) => l.msg === "Unknown config key 'memory' (ignored)")).toMatchObject({
      toml_path: 'memory',
      severity: 'warning',
    });
    expect(logs.find((l) => l.msg === errors[0])).toMatchObject({
      toml_path: 'risk_profiles.ops.delegation_policy.mode',
      level: 50,
    });
    expect(messages()).toContain(reloadRejected(path, errors.length));
    // The loader is the judge: what was logged is exactly what `baton config check` reports.
    const check = loadConfigText(broken, {}).diagnostics.map((d) => d.message);
    expect(
      messages()
        .filter((m) => check.includes(m))
        .sort(),
    ).toEqual([...check].sort());
  });

  it('on SIGHUP: a parse error is rejected the same way, with the parser message logged', async () => {
    const broken = `${base()}\n[agents.x\n`;
    writeFileSync(path, broken);
    const before = live.current();
    signalSource.emit('SIGHUP', 'SIGHUP');
    await waitFor(() => messages().includes(reloadRejected(path, 1)), 5000, 'the rejection line');
    const parserMessage = loadConfigText(broken, {}).diagnostics[0]?.message ?? '';
    expect(parserMessage).toMatch(/^Invalid TOML document: illegal character in key/);
    expect(messages()).toContain(parserMessage);
    expect(live.current()).toBe(before);
  });
});

describe('a good reload', () => {
  it('replaces the live config, keeps restart-only keys with one warning each, and lists what changed', async () => {
    writeFileSync(path, base({ mode: 'allow', prefix: `${prefix}-other`, concurrency: 9 }));
    const changes: BatonConfig[] = [];
    const off = live.onChange((next) => changes.push(next));
    const res = await requestDeploymentReload(redis, prefix);
    off();
    expect(res.acks).toEqual([
      expect.objectContaining({
        ok: true,
        changed: ['risk_profiles.ops.delegation_policy.mode'],
        restart_only: ['redis.prefix', 'worker.concurrency'],
        errors: [],
      }),
    ]);
    const now = live.current();
    expect(changes).toEqual([now]);
    expect(now.risk_profiles.ops?.delegation_policy.mode).toBe('allow');
    expect(now.redis.prefix).toBe(prefix);
    expect(now.worker.concurrency).toBe(4);
    expect(messages()).toContain(reloadRestartOnly('redis.prefix'));
    expect(messages()).toContain(reloadRestartOnly('worker.concurrency'));
    expect(messages()).toContain(reloadApplied(path, ['risk_profiles.ops.delegation_policy.mode']));
  });

  it('SIGHUP applies a change too, and says so on the console', async () => {
    writeFileSync(path, base({ mode: 'forbidden' }));
    signalSource.emit('SIGHUP', 'SIGHUP');
    await waitFor(
      () => live.current().risk_profiles.ops?.delegation_policy.mode === 'forbidden',
      5000,
      'reload',
    );
    expect(said).toContain(`baton: SIGHUP received; reloading the config from ${path}`);
    expect(messages()).toContain(reloadApplied(path, ['risk_profiles.ops.delegation_policy.mode']));
  });
});

describe('`baton reload` exit status', () => {
  // The CLI reads only [redis] of its own file; the listening process judges its own file (`path`).
  const cliPath = join(dir, 'cli.toml');
  const run = async (cliPrefix: string) => {
    writeFileSync(cliPath, base({ prefix: cliPrefix }));
    const out: string[] = [];
    const code = await reloadCommand(
      { configPath: cliPath, timeoutMs: 3000 },
      { out: (l) => out.push(l), err: (l) => out.push(l), env: {} },
    );
    return { code, out };
  };

  it('exits 1 when a process rejected the file, and still prints its lines', async () => {
    writeFileSync(path, `${base()}\n[agents.x\n`);
    const res = await run(prefix);
    expect(res.code).toBe(1);
    expect(res.out[0]).toBe(reloadAcknowledged(1, 1, prefix));
    expect(res.out[1]).toMatch(
      /^ {2}worker \S+: rejected, 1 error in its config \(see its log\); the running config stays$/,
    );
    expect(res.out[1]).toBe(ackRejected('worker', res.out[1]!.trim().split(' ')[1]!.replace(/:$/, ''), 1));
  });

  it('exits 1 when no process answered', async () => {
    const nobody = `${prefix}-nobody`;
    const res = await run(nobody);
    expect(res.code).toBe(1);
    expect(res.out).toEqual([reloadAcknowledged(0, 0, nobody)]);
  });

  it('exits 0 when every process applied it', async () => {
    writeFileSync(path, base({ mode: 'forbidden' }));
    const res = await run(prefix);
    expect(res.code).toBe(0);
    expect(res.out[0]).toBe(reloadAcknowledged(1, 1, prefix));
    expect(res.out[1]).toMatch(/^ {2}worker \S+: applied/);
    expect(res.out[1]).toBe(ackApplied('worker', res.out[1]!.trim().split(' ')[1]!.replace(/:$/, ''), []));
  });
});
