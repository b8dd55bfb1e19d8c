// model_switch: a top-level run switches its model provider for the rest of the session.
import { z } from 'zod';
import { providerSwitchedText, unknownProviderText } from '../../agent/agent-messages.ts';
import { providerOf } from '../../config/lookup.ts';
import { fail, ok, type Tool } from '../../run-contract/tool.ts';

const input = z.object({ model_provider: z.string() });

export function createModelSwitchTool(): Tool<z.infer<typeof input>> {
  return {
    name: 'model_switch',
    description:
      'Switch the model provider used for the rest of this conversation. Give a configured provider as "<type>.<alias>".',
    parameters: {
      type: 'object',
      properties: {
        model_provider: {
          type: 'string',
          description: 'Configured provider reference, e.g. "openai.backup".',
        },
      },
      required: ['model_provider'],
    },
    input,
    async execute({ model_provider }, { run }) {
      const ref = model_provider.trim();
      const { config } = run.services;
      // Own entries only: `constructor` or `__proto__` must not "resolve" and be saved for the session.
      const entry = providerOf(config, ref);
      if (!entry) return fail(unknownProviderText(ref, Object.keys(config.providers).sort()));
      run.providerRef = ref;
      await run.services.sessionModels.set(run.agentAlias, run.sessionKey, ref);
      return ok(providerSwitchedText(ref, entry.type, entry.model));
    },
  };
}
