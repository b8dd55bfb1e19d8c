// The last line of defence for text leaving baton from a run: every known secret value is redacted.
import type { BatonConfig } from '../config/types.ts';
import { createTextRedactor, type TextRedactor } from '../core/redact.ts';
import type { RuntimeServices } from '../run/run-context.ts';

const fromConfig = new WeakMap<BatonConfig, TextRedactor>();

/** The services' redactor, or (hand-built services) one built once per config from its secret set. */
export function outboundRedactor(services: Pick<RuntimeServices, 'config' | 'redact'>): TextRedactor {
  if (services.redact) return services.redact;
  let built = fromConfig.get(services.config);
  if (!built) {
    built = createTextRedactor(services.config.secrets);
    fromConfig.set(services.config, built);
  }
  return built;
}
