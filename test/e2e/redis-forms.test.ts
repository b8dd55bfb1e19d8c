// The `baton` CLI and the [redis] forms of spec/config.md §15.1: `config check` accepts the Sentinel form,
// and with cluster_nodes both `config check` and every long-lived role refuse with one line naming the
// key (Redis Cluster needs the partitioned key layout, which this version does not have).
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
  "Invalid config at 'redis.cluster_nodes': Redis Cluster needs the partitioned key layout (spec/config.md §15.1.1), which this version of baton does not have yet; connect through url or sentinels";

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

  it('config check and start, gateway, worker refuse cluster_nodes with one line at redis.cluster_nodes', async () => {
    const path = configFile(
      'cluster',
      'cluster_nodes = ["redis://127.0.0.1:7000", "redis://127.0.0.1:7001"]',
    );
    const runs = await Promise.all(
      [['config', 'check'], ['start'], ['gateway'], ['worker']].map((cmd) =>
        runCli([...cmd, '--config', path]),
      ),
    );
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(`${r.stdout}${r.stderr}`.trim()).toBe(CLUSTER_LINE);
    }
  });
});
