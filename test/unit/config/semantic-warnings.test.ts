// Tests: the semantic warnings of config.md §9–§16, approver_channel liveness included.
import { describe, expect, it } from 'vitest';
import { configOf, errors, load, warnings } from './load-helper.ts';

describe('semantic warnings (config.md §9–§16)', () => {
  it('warns on unconfigured model_provider, runtime_profile, fallback and read_memory_from', () => {
    const r = load(`
schema_version = 3
[providers.models.anthropic.primary]
model = "m"
fallback = ["openai.backup", "anthropic.primary"]
[risk_profiles.p]
[agents.a]
risk_profile = "p"
model_provider = "openai.gpt"
runtime_profile = "fast"
[agents.a.workspace]
read_memory_from = ["a", "ghost"]
`);
    expect(errors(r)).toEqual([]);
    expect(warnings(r)).toEqual([
      `Config warning at 'providers.models.anthropic.primary.fallback[0]': "openai.backup" is not configured; skipped`,
      `Config warning at 'agents.a.model_provider': "openai.gpt" is not configured`,
      `Config warning at 'agents.a.runtime_profile': "fast" is not configured; runtime defaults apply`,
      `Config warning at 'agents.a.workspace.read_memory_from[1]': "ghost" is not configured`,
    ]);
    expect(configOf(r).agents.a).toBeDefined();
  });

  it('warns on a ZeroClaw sandbox_backend baton lacks, and uses "auto"; sandbox_enabled alone does not warn', () => {
    const r = load(`schema_version = 3
[risk_profiles.p]
sandbox_enabled = true
sandbox_backend = "firejail"
[risk_profiles.q]
sandbox_enabled = false
sandbox_backend = "none"
[risk_profiles.l]
sandbox_backend = "landlock"
[risk_profiles.d]
sandbox_backend = "docker"
[risk_profiles.b]
sandbox_backend = "bubblewrap"
sandbox_allow = ["network"]
firejail_args = ["--net=none"]
`);
    expect(errors(r)).toEqual([]);
    expect(warnings(r)).toEqual([
      `Config warning at 'risk_profiles.p.sandbox_backend': "firejail" is not supported by baton; using "auto"`,
      `Config warning at 'risk_profiles.l.sandbox_backend': "landlock" is not supported by baton; using "auto"`,
      `Config warning at 'risk_profiles.d.sandbox_backend': "docker" is not supported by baton; using "auto"`,
    ]);
    const profiles = configOf(r).risk_profiles;
    expect(profiles.p?.sandbox_enabled).toBe(true);
    expect(profiles.q?.sandbox_backend).toBe('none');
    expect(profiles.b?.sandbox_allow).toEqual(['network']);
    expect(profiles.l?.sandbox_allow).toEqual([]);
  });

  it('rejects a sandbox_allow entry other than "network", and an unknown sandbox_backend, by TOML path', () => {
    const r = load(`schema_version = 3
[risk_profiles.p]
sandbox_allow = ["network", "filesystem"]
[risk_profiles.q]
sandbox_backend = "chroot"
`);
    expect(errors(r)).toEqual([
      `Invalid config at 'risk_profiles.p.sandbox_allow[1]': expected one of "network", found "filesystem"`,
      `Invalid config at 'risk_profiles.q.sandbox_backend': expected one of "auto", "bubblewrap", "none", "firejail", "landlock", "docker", found "chroot"`,
    ]);
  });

  it('warns when route_down_model names a provider that is not configured', () => {
    const r = load(
      `schema_version = 3\n[cost.enforcement]\nmode = "route_down"\nroute_down_model = "custom.nope"\n`,
    );
    expect(warnings(r)).toEqual([
      `Config warning at 'cost.enforcement.route_down_model': "custom.nope" is not configured`,
    ]);
  });

  it('warns that tool receipts are not produced when a profile enables them', () => {
    const r = load(
      `schema_version = 3\n[runtime_profiles.signed.tool_receipts]\nenabled = true\n[runtime_profiles.plain.tool_receipts]\nenabled = false\n`,
    );
    expect(warnings(r)).toEqual([
      "Config warning at 'runtime_profiles.signed.tool_receipts.enabled': tool receipts are not supported by baton; no receipts are produced",
    ]);
  });

  it('warns on shell cron jobs (and disables them) and on jobs no agent lists', () => {
    const r = load(`
schema_version = 3
[risk_profiles.p]
[agents.a]
risk_profile = "p"
cron_jobs = ["sh"]
[cron.sh]
command = "ls"
schedule = { kind = "cron", expr = "0 9 * * *" }
[cron.orphan]
job_type = "agent"
schedule = { kind = "every", every_ms = 1000 }
`);
    expect(warnings(r)).toEqual([
      `Config warning at 'cron.sh.job_type': "shell" jobs are not supported by baton; job disabled`,
      "Config warning at 'cron.orphan': not listed in any agent's cron_jobs; job will not run",
    ]);
    expect(configOf(r).cron.sh?.enabled).toBe(false);
    expect(configOf(r).cron.sh?.schedule).toEqual({ kind: 'cron', expr: '0 9 * * *', tz: 'UTC' });
  });

  describe('approver_channel liveness (config.md §12)', () => {
    const withRoute = (channel: string, rest: string) => `
schema_version = 3
[risk_profiles.p.approval_route]
approver_channel = "${channel}"
approver_recipient = "C1"
[agents.a]
risk_profile = "p"
${rest}
`;
    const liveness = (key: string) =>
      `Config warning at 'risk_profiles.p.approval_route.approver_channel': channel "${key}" is not configured, not enabled or not listed by an enabled agent, so approvals routed to it will fail`;

    it('warns for a channel that is not configured', () => {
      expect(warnings(load(withRoute('slack.ops', '')))).toEqual([liveness('slack.ops')]);
    });

    it('warns for a channel that is not enabled', () => {
      expect(warnings(load(withRoute('slack.ops', '[channels.slack.ops]\nenabled = false\n')))).toEqual([
        liveness('slack.ops'),
      ]);
    });

    it('warns for an enabled channel no enabled agent lists while agents declare channels', () => {
      const r = load(
        withRoute(
          'slack.ops',
          `channels = ["telegram.home"]
[channels.telegram.home]
enabled = true
bot_token = "tg-token"
[channels.slack.ops]
enabled = true
bot_token = "xoxb-bot"
app_token = "xapp-app"
`,
        ),
      );
      expect(warnings(r)).toEqual([liveness('slack.ops')]);
    });

    it('does not warn for a live channel, written in full or as a bare unique type', () => {
      const channels =
        '[channels.slack.ops]\nenabled = true\nbot_token = "xoxb-bot"\nsigning_secret = "signing-1"\n';
      expect(warnings(load(withRoute('slack.ops', channels)))).toEqual([]);
      expect(warnings(load(withRoute('slack', channels)))).toEqual([]);
    });

    it('warns for a bare type that matches several enabled aliases', () => {
      const channels = `[channels.telegram.one]\nenabled = true\nbot_token = "tg-one-1"\n[channels.telegram.two]\nenabled = true\nbot_token = "tg-two-2"\n`;
      expect(warnings(load(withRoute('telegram', channels)))).toEqual([liveness('telegram')]);
    });
  });
});
