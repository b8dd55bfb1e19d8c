// Tests: unknown-key, type, value and conditional-requirement diagnostics (config.md §3, §5, §8–§15).
import { describe, expect, it } from 'vitest';
import { configOf, errors, load, MINIMAL, messages, warnings } from './load-helper.ts';

describe('unknown keys (config.md §3)', () => {
  it('gives one warning for a ZeroClaw [memory] section, naming only the outermost key', () => {
    const r = load(
      `${MINIMAL}\n[memory]\nbackend = "sqlite"\nauto_save = true\n[memory.embeddings]\nmodel = "x"\n`,
    );
    expect(messages(r)).toEqual(["Unknown config key 'memory' (ignored)"]);
    expect(r.droppedSections).toEqual([]);
  });

  it('warns on an unknown nested key, ignores it and keeps the section', () => {
    const r = load(
      `${MINIMAL}\n[channels.telegram.home]\nstream_mode = "partial"\n[channels.telegram.home.proxy]\nurl = "x"\n`,
    );
    expect(messages(r)).toEqual([
      "Unknown config key 'channels.telegram.home.stream_mode' (ignored)",
      "Unknown config key 'channels.telegram.home.proxy' (ignored)",
    ]);
    expect(configOf(r).channels['telegram.home']?.approval_timeout_secs).toBe(120);
  });

  it('treats an unknown channel type as an unknown key', () => {
    const r = load(`${MINIMAL}\n[channels.matrix.home]\nenabled = true\n`);
    expect(messages(r)).toEqual(["Unknown config key 'channels.matrix' (ignored)"]);
  });

  it('quotes non-bare keys in the path', () => {
    const r = load(
      `${MINIMAL}\n[cost.rates.providers.models.ollama."qwen2.5-coder:7b"]\ninput_per_mtok = 1\ncolour = "red"\n`,
    );
    expect(messages(r)).toEqual([
      `Unknown config key 'cost.rates.providers.models.ollama."qwen2.5-coder:7b".colour' (ignored)`,
    ]);
    expect(configOf(r).cost.rates.models.ollama?.['qwen2.5-coder:7b']).toEqual({
      input_per_mtok: 1,
      output_per_mtok: 0,
      cached_input_per_mtok: 0,
    });
  });

  it('accepts the compatibility keys without a warning', () => {
    const r = load(`${MINIMAL}
[providers.models.openai.x]
model = "m"
kind = "chat"
pricing = { input = 1 }
live_pricing = true
vision = true
think = "high"
wire_api = "responses"
[risk_profiles.q]
allowed_path = "/srv/a"
allowed_paths = ["/srv/b"]
sandbox_backend = "bubblewrap"
firejail_args = ["--x"]
[risk_profiles.q.delegation_policy]
mode = "allow"
[runtime_profiles.r]
max_context_tokens = 1000
max_history_messages = 10
max_system_prompt_chars = 100
keep_tool_context_turns = 2
memory_recall_limit = 5
thinking = { default_level = "high", native_thinking = true, budget = 5 }
tool_receipts = { enabled = true, key = "k" }
[agents.b]
risk_profile = "q"
skill_bundles = ["s"]
knowledge_bundles = []
mcp_bundles = []
acp_enable_mcp = true
classifier_provider = ""
summary_provider = ""
tts_provider = ""
transcription_provider = ""
memory = { backend = "sqlite" }
[channels.discord.d]
slash_commands = true
[peer_groups.g]
channel = "discord"
ignore = true
output_modality = "text"
admin_for_agent_scope = ["b"]
[cron.c]
job_type = "agent"
schedule = { kind = "at", at = "2030-01-01T00:00:00Z" }
command = "ls"
shell_output_format = "raw"
`);
    // Accepted without a shape warning; enabling receipts only says they are not produced.
    expect(messages(r)).toEqual([
      "Config warning at 'runtime_profiles.r.tool_receipts.enabled': tool receipts are not supported by baton; no receipts are produced",
      "Config warning at 'cron.c': not listed in any agent's cron_jobs; job will not run",
    ]);
    const q = configOf(r).risk_profiles.q;
    expect(q?.allowed_roots).toEqual(['/srv/a', '/srv/b']);
    expect(q?.delegation_policy).toEqual({ mode: 'allow' });
    expect(configOf(r).runtime_profiles.r?.thinking).toEqual({
      default_level: 'high',
      native_thinking: true,
    });
    expect(configOf(r).runtime_profiles.r?.tool_receipts).toEqual({ enabled: true });
  });
});

describe('wrong types and values (config.md §3)', () => {
  it('rejects a float for an integer, a string for a boolean and a negative non-negative integer', () => {
    const r = load(
      `${MINIMAL}\n[reliability]\nprovider_retries = 1.0\nprovider_backoff_ms = -5\n[delegate]\ntimeout_secs = "60"\n[cost]\nenabled = "yes"\n`,
    );
    expect(errors(r)).toEqual([
      "Invalid config at 'reliability.provider_retries': expected integer, found float",
      "Invalid config at 'reliability.provider_backoff_ms': must not be negative",
      "Invalid config at 'delegate.timeout_secs': expected integer, found string",
      "Invalid config at 'cost.enabled': expected boolean, found string",
    ]);
  });

  it('accepts integers and floats for a number key', () => {
    const r = load(`${MINIMAL}\n[cost]\ndaily_limit_usd = 5\nmonthly_limit_usd = 50.5\n`);
    expect(errors(r)).toEqual([]);
    expect(configOf(r).cost.daily_limit_usd).toBe(5);
    expect(configOf(r).cost.monthly_limit_usd).toBe(50.5);
  });

  it('names every found kind', () => {
    const r = load(`${MINIMAL}
[agents.b]
risk_profile = "p"
model_provider = 1
runtime_profile = 1.5
enabled = "true"
channels = "telegram.x"
cron_jobs = [true]
workspace = 3
[agents.c]
risk_profile = 1979-05-27T07:32:00Z
model_provider = ["x"]
`);
    expect(errors(r)).toEqual([
      "Invalid config at 'agents.b.enabled': expected boolean, found string",
      "Invalid config at 'agents.b.channels': expected array, found string",
      "Invalid config at 'agents.b.model_provider': expected string, found integer",
      "Invalid config at 'agents.b.runtime_profile': expected string, found float",
      "Invalid config at 'agents.b.cron_jobs[0]': expected string, found boolean",
      "Invalid config at 'agents.b.workspace': expected table, found integer",
      "Invalid config at 'agents.c.model_provider': expected string, found array",
      "Invalid config at 'agents.c.risk_profile': expected string, found datetime",
    ]);
  });

  it('gives the enum reason, e.g. for level = "read_only"', () => {
    const r = load(`${MINIMAL}\n[risk_profiles.q]\nlevel = "read_only"\n[cost.enforcement]\nmode = "stop"\n`);
    expect(errors(r)).toContain(
      `Invalid config at 'risk_profiles.q.level': expected one of "readonly", "supervised", "full", found "read_only"`,
    );
    expect(errors(r)).toContain(
      `Invalid config at 'cost.enforcement.mode': expected one of "warn", "block", "route_down", found "stop"`,
    );
  });

  it('rejects max_execution_tree_iterations = 0 with the spec text', () => {
    const r = load(`${MINIMAL}\n[runtime_profiles.r]\nmax_execution_tree_iterations = 0\n`);
    expect(errors(r)).toEqual([
      "Invalid config at 'runtime_profiles.r.max_execution_tree_iterations': must be at least 1 (omit the key to disable the execution-tree budget)",
    ]);
  });
});

describe('schema_version (config.md §5)', () => {
  it('warns when missing and assumes 3', () => {
    const r = load(MINIMAL.replace('schema_version = 3', ''));
    expect(messages(r)).toEqual(["Config warning at 'schema_version': missing; assuming 3"]);
    expect(r.fatal).toBe(false);
  });

  it('is fatal for any other version', () => {
    const r = load(MINIMAL.replace('schema_version = 3', 'schema_version = 2'));
    expect(errors(r)).toEqual([
      "Invalid config at 'schema_version': unsupported schema_version 2 (baton supports 3)",
    ]);
    expect(r.fatal).toBe(true);
    expect(r.config).toBeNull();
  });
});

describe('conditional requirements', () => {
  it('requires bot_token on an enabled channel and a Slack mode', () => {
    const r = load(
      `${MINIMAL}\n[channels.telegram.t]\nenabled = true\n[channels.slack.s]\nenabled = true\nbot_token = "xoxb"\n[channels.discord.off]\nenabled = false\n`,
    );
    expect(errors(r)).toEqual([
      "Invalid config at 'channels.telegram.t.bot_token': required when the channel is enabled",
      "Invalid config at 'channels.slack.s': set app_token (Socket Mode) or signing_secret (HTTP mode)",
    ]);
  });

  it('requires gateway.api_token when the host is not a loopback address (fatal)', () => {
    const r = load(`${MINIMAL}\n[gateway]\nhost = "0.0.0.0"\n`);
    expect(errors(r)).toEqual([
      "Invalid config at 'gateway.api_token': required when gateway.host is not a loopback address",
    ]);
    expect(r.fatal).toBe(true);
    expect(load(`${MINIMAL}\n[gateway]\nhost = "localhost"\n`).fatal).toBe(false);
    expect(load(`${MINIMAL}\n[gateway]\nhost = "0.0.0.0"\napi_token = "t"\n`).fatal).toBe(false);
  });

  it('requires route_down_model when mode is "route_down"', () => {
    const r = load(`${MINIMAL}\n[cost.enforcement]\nmode = "route_down"\n`);
    expect(errors(r)).toEqual([
      `Invalid config at 'cost.enforcement.route_down_model': required when mode is "route_down"`,
    ]);
  });

  it('requires approver_channel when approval_route is present', () => {
    const r = load(`${MINIMAL}\n[risk_profiles.q.approval_route]\napprover_recipient = "C1"\n`);
    expect(errors(r)).toContain(
      "Invalid config at 'risk_profiles.q.approval_route.approver_channel': required when approval_route is present",
    );
  });

  it('checks the redis prefix pattern (fatal)', () => {
    const r = load(`${MINIMAL}\n[redis]\nprefix = "baton prod"\n`);
    expect(errors(r)).toEqual(["Invalid config at 'redis.prefix': must match [A-Za-z0-9_-]+"]);
    expect(r.fatal).toBe(true);
  });
});

describe('TOML syntax errors', () => {
  it('are fatal with the parser message', () => {
    const r = load('schema_version = 3\n[agents\n');
    expect(r.fatal).toBe(true);
    expect(r.config).toBeNull();
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]?.message).toMatch(/^Invalid TOML document: illegal character in key\n/);
    expect(r.diagnostics[0]?.message).toContain('2:  [agents');
  });
});

describe('warnings are not errors', () => {
  it('loads with warnings only', () => {
    const r = load(`${MINIMAL}\n[gateway]\nfoo = 1\n`);
    expect(warnings(r)).toEqual(["Unknown config key 'gateway.foo' (ignored)"]);
    expect(r.fatal).toBe(false);
  });
});
