// Tests: delegates entry forms (config.md §9.1) and the §16 cross-reference errors in order.
import { describe, expect, it } from 'vitest';
import { configOf, errors, load } from './load-helper.ts';

const BASE = `
schema_version = 3
[risk_profiles.p]
[risk_profiles.other]
[agents.b]
risk_profile = "p"
[agents.c]
risk_profile = "other"
enabled = false
`;

const withA = (body: string) => `${BASE}\n[agents.a]\nrisk_profile = "p"\n${body}\n`;

describe('delegates entry forms (config.md §9.1)', () => {
  it('reads strings as bounded and objects with or without mode, trimmed', () => {
    const r = load(withA(`delegates = [" b ", { agent = "c", mode = "independent" }]`));
    expect(errors(r)).toEqual([]);
    expect(configOf(r).agents.a?.delegates).toEqual([
      { agent: 'b', mode: 'bounded' },
      { agent: 'c', mode: 'independent' },
    ]);
    const r2 = load(withA(`delegates = [{ agent = "b" }]`));
    expect(configOf(r2).agents.a?.delegates).toEqual([{ agent: 'b', mode: 'bounded' }]);
  });

  it('rejects any other key of an object entry with the spec text', () => {
    const r = load(withA(`delegates = ["b", { agent = "c", mode = "bounded", timeout = 5 }]`));
    expect(errors(r)).toEqual([
      `Invalid config at 'agents.a.delegates[1].timeout': unknown field (expected "agent" or "mode")`,
    ]);
    expect(r.droppedSections).toEqual(['agents']);
  });

  it('rejects a bad mode, a missing agent and a non-string non-table entry', () => {
    const r = load(withA(`delegates = [{ agent = "b", mode = "free" }, { mode = "bounded" }, 7]`));
    expect(errors(r)).toEqual([
      `Invalid config at 'agents.a.delegates[0].mode': expected one of "bounded", "independent", found "free"`,
      "Invalid config at 'agents.a.delegates[1].agent': required",
      "Invalid config at 'agents.a.delegates[2]': expected string or table, found integer",
    ]);
  });
});

describe('cross-reference errors (config.md §16)', () => {
  it('checks delegates entries in order: empty, self, dangling, duplicate', () => {
    const r = load(
      withA(`delegates = ["  ", "a", "ghost", "b", { agent = "b", mode = "independent" }, "ghost"]`),
    );
    expect(errors(r)).toEqual([
      'agents.a.delegates[0].agent is empty; remove it or name a configured agent',
      'agents.a.delegates[1].agent = "a" names this agent itself; an agent cannot delegate to itself',
      'agents.a.delegates[2].agent = "ghost" but agents.ghost is not configured',
      'agents.a.delegates[4].agent = "b" duplicates an earlier delegate target',
      'agents.a.delegates[5].agent = "ghost" but agents.ghost is not configured',
    ]);
    expect(r.droppedSections).toEqual(['agents']);
    expect(configOf(r).agents).toEqual({});
  });

  it('does not treat a disabled target as dangling', () => {
    expect(errors(load(withA(`delegates = ["c"]`)))).toEqual([]);
  });

  it('requires a configured risk profile, empty included', () => {
    const r = load(`${BASE}\n[agents.a]\n[agents.d]\nrisk_profile = "nope"\n`);
    expect(errors(r)).toEqual([
      'agents.a.risk_profile must reference a configured [risk_profiles.<alias>] entry',
      'agents.d.risk_profile must reference a configured [risk_profiles.<alias>] entry',
    ]);
  });

  it('checks channels and cron_jobs references, after delegates and risk_profile', () => {
    const r = load(`${BASE}
[agents.a]
risk_profile = "nope"
delegates = ["ghost"]
channels = ["telegram.home", "slack.ops"]
cron_jobs = ["nightly", "ghost-job"]
[channels.slack.ops]
[cron.nightly]
job_type = "agent"
schedule = { kind = "every", every_ms = 60000 }
`);
    expect(errors(r)).toEqual([
      'agents.a.delegates[0].agent = "ghost" but agents.ghost is not configured',
      'agents.a.risk_profile must reference a configured [risk_profiles.<alias>] entry',
      'agents.a.channels[0] = "telegram.home" but channels.telegram.home is not configured',
      'agents.a.cron_jobs[1] = "ghost-job" but cron.ghost-job is not configured',
    ]);
  });
});

describe('[worker] transcript_max_entries (the stored transcript) and the model window', () => {
  it('defaults to 10000 and is validated with its TOML path', () => {
    expect(configOf(load(BASE)).worker.transcript_max_entries).toBe(10_000);
    const bad = load(`${BASE}\n[worker]\ntranscript_max_entries = 0\n`);
    const diag = bad.diagnostics.find((d) => d.path === 'worker.transcript_max_entries');
    expect(diag?.severity).toBe('error');
  });

  it('max_history_messages above it is an error at its path, not a silent cap', () => {
    const r = load(
      `${BASE}\n[worker]\ntranscript_max_entries = 500\n[runtime_profiles.long]\nmax_history_messages = 600\n[runtime_profiles.ok]\nmax_history_messages = 450\n`,
    );
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      {
        severity: 'error',
        path: 'runtime_profiles.long.max_history_messages',
        message:
          'runtime_profiles.long.max_history_messages = 600 exceeds worker.transcript_max_entries = 500: the model cannot be sent more messages than a session keeps',
      },
    ]);
  });
});
