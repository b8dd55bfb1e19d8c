// Tests: `baton config check` output and exit codes, config path resolution, file loading.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configCheck, loadConfigFile, resolveConfigPath } from '../../../src/config/index.ts';

async function fileWith(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-config-'));
  const path = join(dir, 'baton.toml');
  await writeFile(path, text);
  return path;
}

async function check(text: string, env: Record<string, string> = {}) {
  const lines: string[] = [];
  const code = await configCheck(await fileWith(text), env, (line) => lines.push(line));
  return { code, lines };
}

describe('baton config check (config.md §1)', () => {
  it('exits 0 and prints nothing for a clean file', async () => {
    expect(await check('schema_version = 3\n')).toEqual({ code: 0, lines: [] });
  });

  it('exits 0 with warnings only, one per line', async () => {
    expect(await check('[memory]\nbackend = "x"\n')).toEqual({
      code: 0,
      lines: [
        "Config warning at 'schema_version': missing; assuming 3",
        "Unknown config key 'memory' (ignored)",
      ],
    });
  });

  it('exits 1 and prints every warning and error', async () => {
    const result = await check(`schema_version = 3
[reliability]
provider_retries = 1.5
[channels.telegram.home]
enabled = true
bot_token = "\${TOKEN}"
typo = 1
`);
    expect(result).toEqual({
      code: 1,
      lines: [
        "Invalid config at 'channels.telegram.home.bot_token': environment variable TOKEN is not set",
        "Invalid config at 'reliability.provider_retries': expected integer, found float",
        "Unknown config key 'channels.telegram.home.typo' (ignored)",
      ],
    });
  });

  it('exits 1 on a TOML syntax error, printing the parser message', async () => {
    const result = await check('schema_version = = 3\n');
    expect(result.code).toBe(1);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/^Invalid TOML document/);
  });

  it('exits 1 when the file cannot be read', async () => {
    const lines: string[] = [];
    const code = await configCheck('/nonexistent/baton.toml', {}, (l) => lines.push(l));
    expect(code).toBe(1);
    expect(lines[0]).toMatch(/^Cannot read config file '\/nonexistent\/baton\.toml': /);
  });
});

describe('config path and file loading', () => {
  it('takes --config, else BATON_CONFIG, else ./baton.toml', () => {
    expect(resolveConfigPath('/a.toml', { BATON_CONFIG: '/b.toml' })).toBe('/a.toml');
    expect(resolveConfigPath(undefined, { BATON_CONFIG: '/b.toml' })).toBe('/b.toml');
    expect(resolveConfigPath(undefined, {})).toBe('./baton.toml');
  });

  it('loads a file with the given environment', async () => {
    const path = await fileWith(`schema_version = 3\n[redis]\nurl = "\${URL}"\n`);
    const result = await loadConfigFile(path, { URL: 'redis://h:1' });
    expect(result.config?.redis.url).toBe('redis://h:1');
  });
});
