// The human-readable lines a role prints at startup: what is configured, what is off and how to enable it.
import type { BatonConfig } from '../config/types.ts';
import { liveChannelKeys } from '../config/views.ts';
import { chooseModel, modelChoice } from '../providers/index.ts';
import { openWebChat } from './role-messages.ts';

export function startupSummary(
  config: BatonConfig,
  role: string,
  startedChannels: readonly string[],
  droppedSections: readonly string[],
  /** The environment model turns run with; absent for a role that runs none (the gateway). */
  modelEnv?: Record<string, string | undefined>,
  /** The gateway's HTTP base URL, for the web chat line; null when no server runs here. */
  opsUrl: string | null = null,
): string[] {
  const lines = [`baton ${role} running (redis prefix "${config.redis.prefix}")`];
  const agents = Object.values(config.agents).filter((a) => a.enabled);
  lines.push(
    agents.length
      ? `agents: ${agents.map((a) => `${a.alias} (${agentModel(a.model_provider, config, modelEnv)})`).join(', ')}`
      : 'agents: none — add an [agents.<alias>] section with model_provider and risk_profile',
  );
  // Which model each agent uses here and why (the first key set, else a local model).
  if (modelEnv)
    for (const a of agents) {
      const line = modelChoice(a.alias, a.model_provider, config.providers, modelEnv);
      if (line !== null) lines.push(line);
    }
  const providers = Object.values(config.providers);
  lines.push(
    providers.length
      ? `providers: ${providers.map((p) => `${p.ref} → ${p.model ?? '(no model)'}`).join(', ')}`
      : // biome-ignore lint/suspicious/noTemplateCurlyInString: tells the operator the literal TOML syntax
        'providers: none — add [providers.models.<type>.<alias>] with a model (and api_key = "${ENV_VAR}")',
  );
  const live = new Set(liveChannelKeys(config));
  for (const ch of Object.values(config.channels)) {
    if (startedChannels.includes(ch.key)) {
      lines.push(`channel ${ch.key}: connected`);
      if (ch.type === 'web' && opsUrl)
        lines.push(openWebChat(`${opsUrl}/chat/${encodeURIComponent(ch.alias)}`));
    } else if (ch.type === 'web' && !live.has(ch.key))
      lines.push(`channel ${ch.key}: off — set enabled = true and list it in an agent's channels`);
    else if (live.has(ch.key))
      lines.push(`channel ${ch.key}: enabled, but its adapter is not available in this build`);
    else if (!ch.enabled)
      lines.push(`channel ${ch.key}: off — set enabled = true and bot_token = "\${...}" to enable`);
    else lines.push(`channel ${ch.key}: off — no enabled agent lists it in channels`);
  }
  if (Object.keys(config.channels).length === 0) {
    lines.push(
      'channels: none — add [channels.telegram.<alias>] (or discord/slack) with enabled and bot_token',
    );
  }
  if (droppedSections.length) {
    lines.push(
      `config problems: sections dropped: ${droppedSections.join(', ')} (run \`baton config check\`)`,
    );
  }
  return lines;
}

/**
 * What the agents line says of an agent's model: in a role that runs turns, the model actually chosen from its
 * chain (the same choice as the `model for` line); in the gateway, which runs none, the configured chain.
 */
function agentModel(
  ref: string,
  config: BatonConfig,
  modelEnv: Record<string, string | undefined> | undefined,
): string {
  if (!ref) return 'model none';
  const chosen = modelEnv ? chooseModel(ref, config.providers, modelEnv) : null;
  return chosen ? `model ${chosen.ref}` : `model_provider ${ref}`;
}
