// Semantic warnings: references and settings that load but will not do what they say (spec/config.md §9–§16).

import {
  approverChannelNotLive,
  CRON_NOT_LISTED,
  fallbackNotConfigured,
  notConfigured,
  RECEIPTS_UNSUPPORTED,
  runtimeProfileNotConfigured,
  SHELL_JOB_UNSUPPORTED,
  sandboxBackendUnsupported,
  warningText,
} from './config-messages.ts';
import { hasEntry as has } from './lookup.ts';
import { peerEntryWarnings } from './peer-warnings.ts';
import { formatPath } from './toml-path.ts';
import { type BatonConfig, type Diagnostic, SUPPORTED_SANDBOX_BACKENDS } from './types.ts';
import { liveChannelKeys, resolveApproverChannel } from './views.ts';

/** Runs on the config that will actually start, after dropped sections are removed. */
export function semanticWarnings(config: BatonConfig): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn = (segments: PropertyKey[], reason: string): void => {
    const path = formatPath(segments);
    out.push({ severity: 'warning', path, message: warningText(path, reason) });
  };

  for (const p of Object.values(config.providers)) {
    p.fallback.forEach((ref, i) => {
      if (!has(config.providers, ref)) {
        warn(['providers', 'models', p.type, p.alias, 'fallback', i], fallbackNotConfigured(ref));
      }
    });
  }

  const routeDown = config.cost.enforcement.route_down_model;
  if (config.cost.enforcement.mode === 'route_down' && routeDown && !has(config.providers, routeDown)) {
    // Found at the first routed request otherwise, when spend is already near the limit.
    warn(['cost', 'enforcement', 'route_down_model'], notConfigured(routeDown));
  }

  const live = new Set(liveChannelKeys(config));
  for (const [name, profile] of Object.entries(config.risk_profiles)) {
    if (!SUPPORTED_SANDBOX_BACKENDS.includes(profile.sandbox_backend))
      warn(['risk_profiles', name, 'sandbox_backend'], sandboxBackendUnsupported(profile.sandbox_backend));
    const route = profile.approval_route;
    if (route === undefined) continue;
    const key = resolveApproverChannel(config, route.approver_channel);
    if (key === undefined || !live.has(key)) {
      warn(
        ['risk_profiles', name, 'approval_route', 'approver_channel'],
        approverChannelNotLive(route.approver_channel.trim()),
      );
    }
  }

  for (const [name, profile] of Object.entries(config.runtime_profiles)) {
    // Optional in the spec (delegate.md §9.9): say so rather than silently sign nothing.
    if (profile.tool_receipts?.enabled) {
      warn(['runtime_profiles', name, 'tool_receipts', 'enabled'], RECEIPTS_UNSUPPORTED);
    }
  }

  for (const [a, agent] of Object.entries(config.agents)) {
    // An empty model_provider is "required to dispatch", a runtime failure; only a dangling name warns here.
    if (agent.model_provider !== '' && !has(config.providers, agent.model_provider)) {
      warn(['agents', a, 'model_provider'], notConfigured(agent.model_provider));
    }
    if (agent.runtime_profile !== '' && !has(config.runtime_profiles, agent.runtime_profile)) {
      warn(['agents', a, 'runtime_profile'], runtimeProfileNotConfigured(agent.runtime_profile));
    }
    agent.workspace.read_memory_from.forEach((alias, i) => {
      if (!has(config.agents, alias)) {
        warn(['agents', a, 'workspace', 'read_memory_from', i], notConfigured(alias));
      }
    });
  }

  for (const w of peerEntryWarnings(config)) warn(w.segments, w.reason);

  const listed = new Set(Object.values(config.agents).flatMap((a) => a.cron_jobs));
  for (const [alias, job] of Object.entries(config.cron)) {
    if (job.job_type === 'shell') warn(['cron', alias, 'job_type'], SHELL_JOB_UNSUPPORTED);
    if (!listed.has(alias)) warn(['cron', alias], CRON_NOT_LISTED);
  }
  return out;
}
