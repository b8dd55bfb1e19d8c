// The config shared by the delegate integration tests: callers, peers, cross-profile and independent targets.

export const DELEGATE_TOML = `
[providers.models.custom.main]
uri = "\${MODEL_URI}"
model = "main-model"

[providers.models.custom.fast]
uri = "\${MODEL_URI}"
model = "fast-model"

[providers.models.custom.deep]
uri = "\${MODEL_URI}"
model = "deep-model"

[providers.models.custom.primary]
uri = "\${MODEL_URI}"
model = "primary-model"
fallback = ["custom.backup"]

[providers.models.custom.backup]
uri = "\${MODEL_URI}"
model = "backup-model"

[providers.models.custom.textonly]
uri = "\${MODEL_URI}"
model = "text-model"
native_tools = false

[providers.models.custom.mixed]
uri = "\${MODEL_URI}"
model = "mixed-model"
fallback = ["custom.textonly"]

[reliability]
provider_retries = 0
provider_backoff_ms = 1

[risk_profiles.ops]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate", "memory_store", "file_write"]

[risk_profiles.other]
auto_approve = ["memory_store"]
allowed_tools = ["memory_store", "memory_recall", "file_read", "shell", "spawn_subagent"]

[risk_profiles.locked]
auto_approve = ["delegate"]

[risk_profiles.reader]
level = "readonly"
delegation_policy = { mode = "allow" }

[risk_profiles.asky]
always_ask = ["shell", "  ", "file_write"]

[risk_profiles.bare]
deny_all_tools = true

[runtime_profiles.root]
max_tool_iterations = 6

[runtime_profiles.oneshot]
delegation_timeout_secs = 1

[runtime_profiles.agentic]
agentic = true
max_tool_iterations = 3
agentic_timeout_secs = 2

[runtime_profiles.noactions]
max_actions_per_hour = 0

[runtime_profiles.shallow]
max_delegation_depth = 1

[agents.main]
model_provider = "custom.main"
risk_profile = "ops"
runtime_profile = "root"
delegates = [{ agent = "indie", mode = "independent" }, "ext", { agent = "askindie", mode = "independent" }, "askbot", "bare"]

[agents.writer]
model_provider = "custom.fast"
risk_profile = "ops"
runtime_profile = "oneshot"

[agents.coder]
model_provider = "custom.deep"
risk_profile = "ops"
runtime_profile = "agentic"

[agents.flaky]
model_provider = "custom.primary"
risk_profile = "ops"

[agents.flakyagent]
model_provider = "custom.primary"
risk_profile = "ops"
runtime_profile = "agentic"

[agents.strictmix]
model_provider = "custom.mixed"
risk_profile = "ops"
runtime_profile = "strictagentic"

[runtime_profiles.strictagentic]
agentic = true
strict_tool_parsing = true

[agents.noprov]
model_provider = "custom.missing"
risk_profile = "ops"

[agents.off]
enabled = false
model_provider = "custom.fast"
risk_profile = "ops"

[agents.stranger]
model_provider = "custom.fast"
risk_profile = "other"

[agents.ext]
model_provider = "custom.fast"
risk_profile = "other"
runtime_profile = "agentic"

[agents.indie]
model_provider = "custom.fast"
risk_profile = "other"
runtime_profile = "agentic"

[agents.askindie]
model_provider = "custom.fast"
risk_profile = "asky"

[agents.askbot]
model_provider = "custom.fast"
risk_profile = "asky"
runtime_profile = "agentic"

[agents.bare]
model_provider = "custom.fast"
risk_profile = "bare"
runtime_profile = "agentic"

[agents.locked]
model_provider = "custom.main"
risk_profile = "locked"

[agents.reader]
model_provider = "custom.main"
risk_profile = "reader"

[agents.broke]
model_provider = "custom.main"
risk_profile = "ops"
runtime_profile = "noactions"

[agents.shallow]
model_provider = "custom.main"
risk_profile = "ops"
runtime_profile = "shallow"

[agents.loner]
model_provider = "custom.main"
risk_profile = "ops"
delegate_same_risk_profile = false
`;

/** Every configured alias, sorted: the list in `Unknown agent` texts. */
export const ALL_AGENTS =
  'askbot, askindie, bare, broke, coder, ext, flaky, flakyagent, indie, locked, loner, main, noprov, off, reader, shallow, stranger, strictmix, writer';

/** main's reachable roster: ops peers (enabled, not itself) plus its explicit entries, sorted. */
export const MAIN_ROSTER = [
  'askbot',
  'askindie',
  'bare',
  'broke',
  'coder',
  'ext',
  'flaky',
  'flakyagent',
  'indie',
  'loner',
  'noprov',
  'shallow',
  'strictmix',
  'writer',
];

export const delegateCall = (id: string, args: Record<string, unknown>) => ({
  id,
  name: 'delegate',
  arguments: args,
});
