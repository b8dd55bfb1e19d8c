// Texts about the model setup: the startup line naming the model in use, and the chat replies for a setup
// problem (setup-problem.ts). Provider names and model ids come from the config, never from a provider reply.
import type { SetupProblem } from './setup-problem.ts';

/** `a, b or c` */
const oneOf = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;

/** e.g. `model for main: anthropic.hosted (claude-sonnet-4-5) via ANTHROPIC_API_KEY (not set: OPENAI_API_KEY)` */
export function modelChoiceLine(
  agent: string,
  provider: string,
  model: string,
  via: { key: string } | { host: string },
  notSet: readonly string[],
): string {
  const how = 'key' in via ? `via ${via.key}` : `at ${via.host}`;
  const skipped = notSet.length ? ` (not set: ${notSet.join(', ')})` : '';
  return `model for ${agent}: ${provider} (${model}) ${how}${skipped}`;
}

const startOllama = (model: string) => `Start Ollama (\`ollama serve\`, then \`ollama pull ${model}\`)`;
const orSetKey = (keys: readonly string[]) =>
  keys.length ? `, or set ${oneOf(keys)} and restart baton` : '';

/** The one chat reply for a setup problem. */
export function setupProblemText(p: SetupProblem): string {
  switch (p.kind) {
    case 'unreachable':
      if (p.ollamaModel !== null)
        return `⚠️ No model is reachable. ${startOllama(p.ollamaModel)} and send your message again${orSetKey(p.missingKeys)}.`;
      return `⚠️ No model is reachable: baton could not connect to the model provider '${p.provider}'. Check that its server is running and its uri is right, then send your message again${orSetKey(p.missingKeys)}.`;
    case 'key_rejected':
      return `⚠️ The model provider '${p.provider}' rejected the API key in ${p.keyName}. Set a valid key and restart baton.`;
    case 'key_missing':
      return `⚠️ The model provider '${p.provider}' needs an API key: set ${p.keyName} and restart baton.`;
    case 'model_missing':
      return `⚠️ Ollama is running but does not have the model ${p.model}. Run \`ollama pull ${p.model}\`, then send your message again.`;
  }
}
