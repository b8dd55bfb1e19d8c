// Step 5 of loading: the cross-reference errors of spec/config.md §16, in the spec's order per agent.

import {
  channelMissing,
  cronJobMissing,
  delegateDangling,
  delegateDuplicate,
  delegateEmpty,
  delegateSelf,
  historyWindowExceedsTranscript,
  riskProfileMissing,
  transcriptionProviderAnthropic,
  transcriptionProviderMissing,
} from './config-messages.ts';
import { hasEntry as has, providerOf } from './lookup.ts';
import { formatPath } from './toml-path.ts';
import type { BatonConfig, Diagnostic } from './types.ts';

export function checkCrossRefs(config: BatonConfig): Diagnostic[] {
  const out: Diagnostic[] = [];
  const error = (segments: PropertyKey[], message: string): void => {
    out.push({ severity: 'error', path: formatPath(segments), message });
  };

  for (const [a, agent] of Object.entries(config.agents)) {
    const seen = new Set<string>();
    agent.delegates.forEach((entry, i) => {
      const t = entry.agent.trim();
      const at = ['agents', a, 'delegates', i, 'agent'];
      if (t === '') error(at, delegateEmpty(a, i));
      else if (t === a) error(at, delegateSelf(a, i, t));
      else if (!has(config.agents, t)) error(at, delegateDangling(a, i, t));
      // Aliases only: the same target with another mode is still a duplicate.
      else if (seen.has(t)) error(at, delegateDuplicate(a, i, t));
      seen.add(t);
    });

    const profile = agent.risk_profile.trim();
    if (profile === '' || !has(config.risk_profiles, profile)) {
      error(['agents', a, 'risk_profile'], riskProfileMissing(a));
    }

    agent.channels.forEach((ref, i) => {
      if (!has(config.channels, ref.trim()))
        error(['agents', a, 'channels', i], channelMissing(a, i, ref.trim()));
    });
    agent.cron_jobs.forEach((job, i) => {
      if (!has(config.cron, job.trim()))
        error(['agents', a, 'cron_jobs', i], cronJobMissing(a, i, job.trim()));
    });
  }
  const kept = config.worker.transcript_max_entries;
  for (const [p, profile] of Object.entries(config.runtime_profiles)) {
    const window = profile.max_history_messages;
    if (window !== undefined && window > kept)
      error(['runtime_profiles', p, 'max_history_messages'], historyWindowExceedsTranscript(p, window, kept));
  }
  return out;
}

/** `[transcription] provider` must name a configured provider with an OpenAI-compatible endpoint. */
export function checkTranscription(config: BatonConfig): Diagnostic[] {
  const ref = config.transcription.provider;
  if (ref === undefined) return [];
  const path = formatPath(['transcription', 'provider']);
  const entry = providerOf(config, ref);
  if (!entry) return [{ severity: 'error', path, message: transcriptionProviderMissing(ref) }];
  if (entry.type === 'anthropic')
    return [{ severity: 'error', path, message: transcriptionProviderAnthropic(ref) }];
  return [];
}
