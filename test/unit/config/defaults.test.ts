// Tests: every default of config.md applied by the loader, and cron schedule forms.
import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTO_APPROVE } from '../../../src/config/index.ts';
import { BASE_DIR, configOf, errors, load, MINIMAL, warnings } from './load-helper.ts';

describe('defaults (config.md §5–§15)', () => {
  const config = configOf(
    load(`${MINIMAL}
[providers.models.anthropic.a]
[providers.models.openai.o]
[providers.models.openrouter.r]
[providers.models.ollama.l]
[providers.models.custom.c]
[channels.telegram.t]
[channels.discord.d]
[channels.slack.s]
[peer_groups.g]
channel = "telegram"
`),
  );

  it('fills the baton sections', () => {
    expect(config.schema_version).toBe(3);
    expect(config.redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      prefix: 'baton',
      sentinels: undefined,
      sentinel_master: undefined,
      cluster_nodes: undefined,
      partitions: 1,
    });
    expect(config.gateway).toEqual({
      host: '127.0.0.1',
      port: 8080,
      data_dir: `${BASE_DIR}/data`,
      api_token: undefined,
      health_detail: 'token',
      trusted_proxies: [],
      web_users: {},
    });
    expect(config.worker).toEqual({
      concurrency: 16,
      background_concurrency: 8,
      shutdown_grace_secs: 30,
      transcript_max_entries: 10_000,
    });
    expect(config.reliability).toEqual({
      provider_retries: 2,
      provider_backoff_ms: 500,
      scheduler_retries: 2,
    });
    expect(config.delegate).toEqual({ timeout_secs: 120, agentic_timeout_secs: 300 });
  });

  it('fills cost', () => {
    expect(config.cost).toEqual({
      enabled: true,
      daily_limit_usd: 10,
      monthly_limit_usd: 100,
      warn_at_percent: 80,
      allow_override: false,
      track_per_agent: true,
      enforcement: { mode: 'warn', route_down_model: undefined, reserve_percent: 10 },
      rates: { models: {}, tools: {} },
    });
  });

  it('gives providers a ref and the per-type uri', () => {
    expect(Object.values(config.providers).map((p) => [p.ref, p.type, p.alias, p.uri])).toEqual([
      ['anthropic.a', 'anthropic', 'a', 'https://api.anthropic.com'],
      ['openai.o', 'openai', 'o', 'https://api.openai.com/v1'],
      ['openrouter.r', 'openrouter', 'r', 'https://openrouter.ai/api/v1'],
      ['ollama.l', 'ollama', 'l', 'http://localhost:11434'],
      ['custom.c', 'custom', 'c', undefined],
    ]);
    expect(config.providers['anthropic.a']).toMatchObject({
      requires_openai_auth: false,
      fallback: [],
      fallback_models: [],
      extra_headers: {},
      api_key: undefined,
    });
  });

  it('fills a risk profile, always merging the default auto_approve entries', () => {
    const p = configOf(
      load(`${MINIMAL.replace('[risk_profiles.p]', '[risk_profiles.p]\nauto_approve = []')}`),
    ).risk_profiles.p;
    expect(p).toMatchObject({
      name: 'p',
      level: 'supervised',
      workspace_only: true,
      require_approval_for_medium_risk: true,
      block_high_risk_commands: true,
      auto_approve: [...DEFAULT_AUTO_APPROVE],
      always_ask: [],
      allowed_roots: [],
      delegation_policy: { mode: 'forbidden' },
      allowed_tools: [],
      deny_all_tools: false,
      approval_route: undefined,
    });
    expect(p?.allowed_commands).toEqual(expect.arrayContaining(['git', 'npm', 'cargo', 'ls', 'cat', 'grep']));
    expect(p?.forbidden_paths).toEqual(expect.arrayContaining(['/etc', '/root', '~/.ssh']));
  });

  it('fills approval_route defaults', () => {
    const r = load(`${MINIMAL}\n[risk_profiles.q.approval_route]\napprover_channel = "telegram.x"\n`);
    expect(configOf(r).risk_profiles.q?.approval_route).toEqual({
      approver_channel: 'telegram.x',
      approver_recipient: '',
      on_no_approver: 'deny',
      timeout_secs: 120,
    });
  });

  it('fills an agent, resolving its workspace under data_dir', () => {
    expect(config.agents.a).toEqual({
      alias: 'a',
      enabled: true,
      channels: [],
      model_provider: '',
      risk_profile: 'p',
      runtime_profile: '',
      delegate_same_risk_profile: true,
      delegates: [],
      cron_jobs: [],
      workspace: {
        path: `${BASE_DIR}/data/workspaces/a`,
        access: {},
        unrestricted_filesystem: false,
        read_memory_from: ['a'],
      },
    });
    const custom = configOf(
      load(`${MINIMAL}\n[gateway]\ndata_dir = "/var/lib/b"\n[agents.a.workspace]\npath = "ws"\n`),
    );
    expect(custom.agents.a?.workspace.path).toBe(`${BASE_DIR}/ws`);
    const moved = configOf(load(`${MINIMAL}\n[gateway]\ndata_dir = "/var/lib/b"\n`));
    expect(moved.agents.a?.workspace.path).toBe('/var/lib/b/workspaces/a');
  });

  it('fills channels with per-type defaults and keys', () => {
    expect(config.channels['telegram.t']).toEqual({
      type: 'telegram',
      key: 'telegram.t',
      alias: 't',
      enabled: false,
      bot_token: undefined,
      mention_only: false,
      approval_timeout_secs: 120,
      excluded_tools: [],
      reply_min_interval_secs: 0,
      max_attachment_mb: 20,
      background_notices: true,
      streaming: 'partial',
      stream_after_ms: 800,
      stream_edit_interval_ms: 1000,
      progress: 'compact',
      progress_after_ms: 2000,
      api_base_url: 'https://api.telegram.org',
    });
    expect(config.channels['discord.d']).toMatchObject({
      approval_timeout_secs: 300,
      api_base_url: 'https://discord.com/api',
      guild_ids: [],
      channel_ids: [],
    });
    expect(config.channels['slack.s']).toMatchObject({
      approval_timeout_secs: 300,
      api_base_url: 'https://slack.com/api/',
      thread_replies: true,
      app_token: undefined,
      signing_secret: undefined,
    });
  });

  it('fills peer groups', () => {
    expect(config.peer_groups.g).toEqual({ name: 'g', channel: 'telegram', agents: [], external_peers: [] });
  });
});

describe('cron jobs (config.md §14)', () => {
  const job = (
    body: string,
  ) => `${MINIMAL.replace('risk_profile = "p"', 'risk_profile = "p"\ncron_jobs = ["j"]')}
[cron.j]
job_type = "agent"
${body}
`;

  it('reads the three schedule forms', () => {
    const at = configOf(load(job('schedule = { kind = "at", at = "2030-01-01T09:00:00Z" }'))).cron.j;
    expect(at?.schedule).toEqual({ kind: 'at', at: '2030-01-01T09:00:00Z' });
    const every = configOf(load(job('schedule = { kind = "every", every_ms = 300000 }'))).cron.j;
    expect(every?.schedule).toEqual({ kind: 'every', every_ms: 300000 });
    const cron = configOf(load(job('schedule = { kind = "cron", expr = "0 9 * * *", tz = "Europe/Paris" }')))
      .cron.j;
    expect(cron?.schedule).toEqual({ kind: 'cron', expr: '0 9 * * *', tz: 'Europe/Paris' });
    expect(cron).toMatchObject({
      name: 'cron-job',
      prompt: '',
      enabled: true,
      uses_memory: true,
      session_target: 'isolated',
      allowed_tools: undefined,
      delivery: undefined,
    });
  });

  it('reports schedule problems at their paths', () => {
    // The cron section is dropped, so agents.a.cron_jobs dangles too; only the cron errors matter here.
    const cronErrors = (body: string) => errors(load(job(body))).filter((e) => e.includes("'cron."));
    expect(errors(load(job('')))).toContain('agents.a.cron_jobs[0] = "j" but cron.j is not configured');
    expect(cronErrors('')).toEqual(["Invalid config at 'cron.j.schedule': required"]);
    expect(cronErrors('schedule = { kind = "weekly" }')).toEqual([
      `Invalid config at 'cron.j.schedule.kind': expected one of "cron", "every", "at", found "weekly"`,
    ]);
    expect(cronErrors('schedule = { kind = "every", every_ms = 0 }')).toEqual([
      "Invalid config at 'cron.j.schedule.every_ms': must be at least 1",
    ]);
    expect(cronErrors('schedule = { kind = "at", at = "tomorrow" }')).toEqual([
      "Invalid config at 'cron.j.schedule.at': expected an RFC 3339 date-time",
    ]);
    expect(cronErrors('schedule = { kind = "cron", expr = "* * * * *", tz = "Mars/Olympus" }')).toEqual([
      `Invalid config at 'cron.j.schedule.tz': unknown time zone "Mars/Olympus"`,
    ]);
  });

  it('warns on a key of another schedule form', () => {
    const r = load(job('schedule = { kind = "every", every_ms = 5, expr = "* * * * *" }'));
    expect(errors(r)).toEqual([]);
    expect(warnings(r)).toEqual(["Unknown config key 'cron.j.schedule.expr' (ignored)"]);
  });
});
