// /ui/config: the loaded config, read-only with secrets redacted, plus the delegation_policy.mode selector per
// risk profile (config.md §10: Config → Risk profiles → <profile> → delegation_policy.mode).
import { ownEntry } from '../../config/lookup.ts';
import type { BatonConfig, RiskProfile } from '../../config/types.ts';
import { createDeepRedactor } from '../../core/redact.ts';
import { type Html, html } from '../html.ts';
import { CONFIG_PATH_UNKNOWN, SAVE_LABEL } from './ops-page-messages.ts';

export const DELEGATION_MODES = [
  'forbidden',
  'allow',
] as const satisfies readonly RiskProfile['delegation_policy']['mode'][];

/** Credential-looking keys are hidden whole, whatever their value (e.g. a token written inline, not as ${VAR}). */
const SECRET_KEYS = /(^|_)(token|secret|secret_hash|password|api_key|apikey|signing_secret|private_key)$/i;

/** The config as shown: `secrets` itself left out, every known secret value and credential key redacted. */
export function redactedConfig(config: BatonConfig): Record<string, unknown> {
  const token = config.gateway.api_token;
  const redact = createDeepRedactor([...config.secrets, ...(token ? [token] : [])], {
    secretKeys: SECRET_KEYS,
  });
  const { secrets: _secrets, ...shown } = config;
  return redact(shown) as Record<string, unknown>;
}

function policyForm(profile: string, mode: string, editable: boolean): Html {
  const options = DELEGATION_MODES.map(
    (m) => html`<option value="${m}"${m === mode ? html` selected` : ''}>${m}</option>`,
  );
  return html`<form class="policy" data-post-form action="/ui/config/risk-profiles/${encodeURIComponent(profile)}/delegation-policy" method="post">
<label>delegation_policy.mode <select name="mode"${editable ? '' : html` disabled`}>${options}</select></label>
${editable ? html`<button type="submit" class="primary">${SAVE_LABEL}</button>` : ''}
<output class="result"></output>
</form>`;
}

export function configBody(config: BatonConfig, configPath: string | undefined): Html {
  const shown = redactedConfig(config);
  const { risk_profiles: profiles, ...rest } = shown as { risk_profiles: Record<string, unknown> };
  const profileSections = Object.keys(config.risk_profiles)
    .sort()
    .map(
      (p) => html`<section class="profile" data-profile="${p}"><h3>Risk profiles → ${p}</h3>
${policyForm(p, ownEntry(config.risk_profiles, p)?.delegation_policy.mode ?? 'forbidden', configPath !== undefined)}
<details><summary>All keys</summary><pre>${JSON.stringify(profiles[p], null, 2)}</pre></details>
</section>`,
    );
  const sections = Object.entries(rest).map(
    ([name, value]) =>
      html`<details class="section"><summary>${name}</summary><pre>${JSON.stringify(value, null, 2)}</pre></details>`,
  );
  return html`<p class="muted">${configPath ? html`Loaded from <code>${configPath}</code>.` : CONFIG_PATH_UNKNOWN}</p>
<h2>Risk profiles</h2>
${profileSections}
<h2>Everything else</h2>
${sections}`;
}
