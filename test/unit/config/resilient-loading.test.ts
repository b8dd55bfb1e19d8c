// Tests: dropping bad sections, fail-closed cascades and fatal sections (config.md §4).
import { describe, expect, it } from 'vitest';
import { configOf, errors, load, MINIMAL } from './load-helper.ts';

describe('resilient loading (config.md §4)', () => {
  it('drops a bad risk_profiles section and, through the dangling reference, agents too', () => {
    const r = load(`${MINIMAL}\n[risk_profiles.p2]\nlevel = "read_only"\n`);
    expect(r.fatal).toBe(false);
    expect(r.droppedSections).toEqual(['risk_profiles', 'agents']);
    const config = configOf(r);
    expect(config.risk_profiles).toEqual({});
    expect(config.agents).toEqual({});
    expect(errors(r)).toEqual([
      `Invalid config at 'risk_profiles.p2.level': expected one of "readonly", "supervised", "full", found "read_only"`,
      'agents.a.risk_profile must reference a configured [risk_profiles.<alias>] entry',
    ]);
  });

  it('falls back to the defaults of a bad cost section', () => {
    const r = load(`${MINIMAL}\n[cost]\ndaily_limit_usd = 1.0\nwarn_at_percent = 101\n`);
    expect(errors(r)).toEqual(["Invalid config at 'cost.warn_at_percent': must be between 0 and 100"]);
    expect(r.droppedSections).toEqual(['cost']);
    expect(configOf(r).cost.daily_limit_usd).toBe(10);
    expect(configOf(r).cost.enforcement.mode).toBe('warn');
    expect(configOf(r).agents.a).toBeDefined();
  });

  it('is fatal for an error in [gateway], and still reports every diagnostic', () => {
    const r = load(`${MINIMAL}\n[gateway]\nport = 70000\n[reliability]\nprovider_retries = -1\n`);
    expect(r.fatal).toBe(true);
    expect(r.config).toBeNull();
    expect(errors(r)).toEqual([
      "Invalid config at 'gateway.port': must be between 1 and 65535",
      "Invalid config at 'reliability.provider_retries': must not be negative",
    ]);
  });

  it('drops channels and, through the channel references, agents', () => {
    const r =
      load(`${MINIMAL.replace('risk_profile = "p"', 'risk_profile = "p"\nchannels = ["telegram.home"]')}
[channels.telegram.home]
enabled = "yes"
`);
    expect(r.droppedSections).toEqual(['agents', 'channels']);
    expect(configOf(r).channels).toEqual({});
  });

  it('keeps unaffected sections when one is dropped', () => {
    const r = load(`${MINIMAL}\n[runtime_profiles.r]\nagentic = 1\n[delegate]\ntimeout_secs = 9\n`);
    expect(r.droppedSections).toEqual(['runtime_profiles']);
    expect(configOf(r).delegate.timeout_secs).toBe(9);
    expect(configOf(r).agents.a?.risk_profile).toBe('p');
  });

  it('drops worker to its defaults rather than failing', () => {
    const r = load(`${MINIMAL}\n[worker]\nconcurrency = 0\n`);
    expect(errors(r)).toEqual(["Invalid config at 'worker.concurrency': must be at least 1"]);
    expect(r.fatal).toBe(false);
    expect(configOf(r).worker.concurrency).toBe(16);
  });
});
