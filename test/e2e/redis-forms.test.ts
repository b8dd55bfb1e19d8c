// The `baton` CLI and the [redis] forms of spec/config.md §15.1: `config check` accepts the Sentinel and
// Cluster forms, and a role whose cluster nodes do not answer stops with one line naming them and the key.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'baton-redis-forms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, redis: string): string {
  const path = join(dir, `${name}.toml`);
  writeFileSync(path, `schema_version = 3\n[redis]\n${redis}\n[gateway]\ndata_dir = "${dir}"\n`);
  return path;
}

const CLUSTER_LINE =
  /^error: Cannot reach Redis at Redis Cluster through redis:\/\/127\.0\.0\.1:1, redis:\/\/127\.0\.0\.1:2 \(\[redis\] cluster_nodes\): connect ECONNREFUSED 127\.0\.0\.1:[12]\. Check that the cluster nodes are up and agree \(`redis-cli -c -h <host> -p <port> cluster info` shows cluster_state:ok\)\.$/;

describe('baton and the [redis] forms', () => {
  it('config check accepts sentinels with a master name, the password from the url', async () => {
    const path = configFile(
      'sentinel',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: interpolated by the config loader
      'url = "redis://:${REDIS_PASSWORD}@ignored:6379/0"\nsentinels = ["10.0.0.5:26379", "10.0.0.6:26379"]\nsentinel_master = "baton"',
    );
    const r = await runCli(['config', 'check', '--config', path], {
      REDIS_PASSWORD: 'a-long-redis-password',
    });
    expect({ code: r.code, out: r.stdout + r.stderr }).toEqual({ code: 0, out: '' });
  });

  it('config check accepts cluster_nodes; start, gateway, worker name the nodes when none answers', async () => {
    const path = configFile('cluster', 'cluster_nodes = ["redis://127.0.0.1:1", "redis://127.0.0.1:2"]');
    const check = await runCli(['config', 'check', '--config', path]);
    expect({ code: check.code, out: check.stdout + check.stderr }).toEqual({ code: 0, out: '' });
    const runs = await Promise.all(
      [['start'], ['gateway'], ['worker']].map((cmd) => runCli([...cmd, '--config', path])),
    );
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(`${r.stdout}${r.stderr}`.trim()).toMatch(CLUSTER_LINE);
    }
  });
});
