// Tests: ${NAME} secret interpolation (config.md §2) and redaction of secrets in diagnostics.
import { describe, expect, it } from 'vitest';
import { configOf, errors, load, MINIMAL, messages } from './load-helper.ts';

describe('secret interpolation (config.md §2)', () => {
  it('replaces a whole value and records it as a secret', () => {
    const r = load(`${MINIMAL}\n[channels.telegram.home]\nenabled = true\nbot_token = "\${TG_TOKEN}"\n`, {
      TG_TOKEN: 'tg-123:abc',
    });
    const config = configOf(r);
    expect(errors(r)).toEqual([]);
    expect(config.channels['telegram.home']?.bot_token).toBe('tg-123:abc');
    expect(config.secrets).toContain('tg-123:abc');
  });

  it('replaces part of a value', () => {
    const r = load(`${MINIMAL}\n[redis]\nurl = "redis://:\${REDIS_PASSWORD}@redis:6379"\n`, {
      REDIS_PASSWORD: 'pw-42',
    });
    expect(configOf(r).redis.url).toBe('redis://:pw-42@redis:6379');
    expect(configOf(r).secrets).toContain('pw-42');
  });

  it('writes a literal ${ for $${ and does not interpolate it', () => {
    const r = load(
      `${MINIMAL}\n[cron.j]\njob_type = "agent"\nprompt = "cost is $\${HOME} and \${X}"\nschedule = { kind = "every", every_ms = 1000 }\n`,
      {
        X: 'x',
      },
    );
    expect(configOf(r).cron.j?.prompt).toBe(`cost is \${HOME} and x`);
  });

  it('reports an unset variable at the value path, including array indices', () => {
    const r = load(
      `${MINIMAL}\n[agents.b]\nrisk_profile = "p"\ndelegates = ["a", { agent = "\${TARGET}" }]\nchannels = ["\${CH}"]\n`,
    );
    expect(errors(r)).toEqual([
      "Invalid config at 'agents.b.delegates[1].agent': environment variable TARGET is not set",
      "Invalid config at 'agents.b.channels[0]': environment variable CH is not set",
    ]);
  });

  it('counts an empty variable as set', () => {
    const r = load(
      `${MINIMAL}\n[providers.models.custom.local]\nuri = "http://127.0.0.1:1/v1"\napi_key = "\${EMPTY}"\n`,
      {
        EMPTY: '',
      },
    );
    expect(errors(r)).toEqual([]);
    expect(configOf(r).providers['custom.local']?.api_key).toBe('');
  });

  it('never interpolates table keys', () => {
    const r = load(
      `${MINIMAL}\n[providers.models.custom.local]\nuri = "http://127.0.0.1:1/v1"\n[providers.models.custom.local.extra_headers]\n"\${G}" = "v"\n`,
      { G: 'x-interpolated' },
    );
    expect(errors(r)).toEqual([]);
    expect(Object.keys(configOf(r).providers['custom.local']?.extra_headers ?? {})).toEqual([`\${G}`]);
  });

  it('never prints an interpolated value in a diagnostic', () => {
    const secret = 'sup3r-s3cret-value';
    const r = load(
      `${MINIMAL}
[risk_profiles.q]
level = "\${LEVEL}"
[agents.b]
risk_profile = "p"
delegates = ["\${LEVEL}"]
runtime_profile = "\${LEVEL}"
model_provider = "\${LEVEL}"
`,
      { LEVEL: secret },
    );
    expect(messages(r).length).toBeGreaterThan(0);
    for (const message of messages(r)) expect(message).not.toContain(secret);
    expect(messages(r)).toContain(
      `Invalid config at 'risk_profiles.q.level': expected one of "readonly", "supervised", "full", found "[redacted]"`,
    );
  });
});

describe('interpolation next to other checks', () => {
  it('ignores an unset variable under an unknown key', () => {
    const r = load(
      `${MINIMAL}\n[memory]\napi_key = "\${EMBEDDINGS_KEY}"\n[channels.matrix.x]\ntoken = "\${MATRIX}"\n`,
    );
    expect(messages(r)).toEqual([
      "Unknown config key 'memory' (ignored)",
      "Unknown config key 'channels.matrix' (ignored)",
    ]);
    expect(r.droppedSections).toEqual([]);
  });

  it('reports an unset variable once, not again as a wrong value', () => {
    const r = load(`${MINIMAL}\n[risk_profiles.q]\nlevel = "\${LEVEL}"\n`);
    expect(errors(r)[0]).toBe(
      "Invalid config at 'risk_profiles.q.level': environment variable LEVEL is not set",
    );
    expect(errors(r).filter((e) => e.includes("'risk_profiles.q.level'"))).toHaveLength(1);
  });
});
