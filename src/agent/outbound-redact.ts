// The last line of defence for text leaving baton from a run: every known secret value is redacted.
import type { TextRedactor } from '../core/redact.ts';
import type { RuntimeServices } from '../run-contract/run-context.ts';

/** The services' redactor (built in the composition root from every secret this process ran with). */
export function outboundRedactor(services: Pick<RuntimeServices, 'redact'>): TextRedactor {
  return services.redact;
}
