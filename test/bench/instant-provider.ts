// An in-process model that answers at once: the benchmark measures baton's own overhead, not a model's.
import type { ModelProvider } from '../../src/providers/types.ts';

export function createInstantProvider(): ModelProvider {
  const label = { provider: 'bench.instant', providerType: 'bench', model: 'instant' };
  return {
    requested: label,
    toolProtocol: 'native',
    async complete(req) {
      const last = req.messages.at(-1);
      return {
        text: `ok: ${last && 'content' in last ? last.content : ''}`,
        toolCalls: [],
        usage: { inputTokens: 1, outputTokens: 1 },
        requested: label,
        served: label,
        fallbackUsed: false,
      };
    },
  };
}
