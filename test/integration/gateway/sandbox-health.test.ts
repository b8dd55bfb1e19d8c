// The shell sandbox at worker startup (config.md §10.2): each worker probes once, logs how shell commands run,
// and publishes it to Redis; /healthz in another role reports it per worker. One worker is given a bwrap path
// that does not exist, so both sides are seen on any host.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import { type Role, startWorkerRole } from '../../../src/roles/worker-role.ts';
import { probeSandbox } from '../../../src/security/sandbox/probe.ts';
import { createShellSandbox } from '../../../src/security/sandbox/shell-sandbox.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { jsonOf, startOpsHarness, testConfig } from './ops-harness.ts';

const prefix = uniquePrefix('sandbox-health');
const dataDir = mkdtempSync(join(tmpdir(), 'baton-sandbox-health-'));
const cleanup = testRedis();
afterAll(async () => {
  await deletePrefix(cleanup, prefix);
  cleanup.disconnect();
  rmSync(dataDir, { recursive: true, force: true });
});

const MISSING = '/nonexistent/baton-health/bwrap';
const reason = `bubblewrap (${MISSING}) cannot be started: ENOENT`;
const probe = await probeSandbox();
const hostState = probe.ok ? 'sandboxed (bubblewrap)' : `unavailable: ${probe.reason}`;

function recordingLogger() {
  const logs: { level: number; msg: string; worker_id?: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      cb();
    },
  });
  return { logs, logger: createLogger({ level: 'info', destination: sink }) };
}

describe('worker sandbox status', () => {
  it('logs it at startup, and /healthz lists every worker, degraded only by a required sandbox that cannot run', async () => {
    const config = testConfig(
      prefix,
      `
[risk_profiles.auto]
[risk_profiles.strict]
sandbox_enabled = true
[risk_profiles.open]
sandbox_enabled = false

[agents.a]
risk_profile = "auto"
[agents.b]
risk_profile = "strict"
[agents.c]
risk_profile = "open"
`,
      dataDir,
    );
    const redis = testRedis();
    const broken = recordingLogger();
    const host = recordingLogger();
    const roles: Role[] = [];
    const h = await startOpsHarness({ prefix, loaded: config });
    try {
      roles.push(
        await startWorkerRole({
          config,
          logger: broken.logger,
          redis,
          sandbox: createShellSandbox({ binary: MISSING }),
        }),
      );
      roles.push(await startWorkerRole({ config, logger: host.logger, redis }));
      const brokenId = broken.logs.find((l) => l.worker_id)?.worker_id ?? '';
      const hostId = host.logs.find((l) => l.worker_id)?.worker_id ?? '';

      expect(broken.logs.filter((l) => l.msg.includes('sandbox')).map((l) => [l.level, l.msg])).toEqual([
        [30, `shell sandbox: unavailable: ${reason}`],
        [
          40,
          `shell sandbox unavailable (${reason}); shell commands of risk profile(s) auto run unsandboxed. Install bubblewrap, or set sandbox_enabled = false to run unsandboxed on purpose`,
        ],
        [
          50,
          `shell sandbox unavailable (${reason}); risk profile(s) strict require it (sandbox_enabled = true), so every shell call of their agents fails`,
        ],
      ]);
      expect(host.logs.filter((l) => l.msg.includes('sandbox'))[0]?.msg).toBe(`shell sandbox: ${hostState}`);

      const res = await h.get('/healthz');
      const body = await jsonOf(res);
      expect(body.workers).toEqual({
        [brokenId]: {
          sandbox: `unavailable: ${reason}`,
          shell: { auto: 'unsandboxed', strict: 'refused', open: 'off' },
        },
        [hostId]: {
          sandbox: hostState,
          shell: probe.ok
            ? { auto: 'sandboxed', strict: 'sandboxed', open: 'off' }
            : { auto: 'unsandboxed', strict: 'refused', open: 'off' },
        },
      });
      expect(res.status).toBe(503);
      expect(body.problems).toContain(
        `worker '${brokenId}': risk profile 'strict' requires the shell sandbox, which is unavailable: ${reason}`,
      );

      // Without the required profile, an unavailable sandbox is reported but does not degrade.
      await Promise.all(roles.splice(0).map((r) => r.close(1000)));
      const relaxed = { ...config, agents: { a: config.agents.a!, c: config.agents.c! } };
      roles.push(
        await startWorkerRole({
          config: relaxed,
          logger: broken.logger,
          redis,
          sandbox: createShellSandbox({ binary: MISSING }),
        }),
      );
      const after = await jsonOf(await h.get('/healthz'));
      expect(Object.values(after.workers)).toEqual([
        { sandbox: `unavailable: ${reason}`, shell: { auto: 'unsandboxed', open: 'off' } },
      ]);
      expect(after.status).toBe('ok');
    } finally {
      await Promise.all(roles.map((r) => r.close(1000)));
      await h.close();
      redis.disconnect();
    }
  });
});
