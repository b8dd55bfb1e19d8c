// Recognises a chain failure that is a setup problem (no model reachable, a key refused, a model not pulled) so
// the chat can say what to do; every field is a baton constant or an operator-written config value.
import type { Candidate } from './candidates.ts';
import type { ClassifiedFailure } from './classify-failure.ts';
import { hostOf, keyName, missingKeys } from './model-selection.ts';

export type SetupProblem =
  /** Nothing answered. `ollama` when a candidate is a local Ollama; `missingKeys`: variables that would help. */
  | { kind: 'unreachable'; provider: string; ollamaModel: string | null; missingKeys: string[] }
  /** A 401/403. `keyName`: the variable or config path of the key (sent or, when none was, expected). */
  | { kind: 'key_rejected' | 'key_missing'; provider: string; keyName: string }
  /** A local Ollama answered 404: the model is not pulled. */
  | { kind: 'model_missing'; provider: string; model: string };

export interface FailedAttempt {
  candidate: Candidate;
  model: string;
  failure: ClassifiedFailure;
}

const OLLAMA_PORT = '11434';

/** An `ollama` entry, or a custom one at Ollama's port (the default config's OpenAI-compatible `/v1`). */
function isOllama(c: Candidate): boolean {
  if (c.type === 'ollama') return true;
  return c.type === 'custom' && hostOf(c.baseUri)?.endsWith(`:${OLLAMA_PORT}`) === true;
}

const isNetwork = (f: FailedAttempt): boolean => f.failure.kind === 'network';
const isNotFound = (f: FailedAttempt): boolean => f.failure.details.status === 404;

/** The setup problem behind a failed chain, or undefined when it is anything else (the safe summary stays). */
export function diagnoseSetup(
  failed: readonly FailedAttempt[],
  skipped: readonly Candidate[],
): SetupProblem | undefined {
  if (failed.length === 0) return undefined;
  // A refused key is the most actionable finding, whatever later candidates did.
  const auth = failed.find((f) => f.failure.failureClass === 'auth');
  if (auth !== undefined) {
    const c = auth.candidate;
    return {
      kind: c.apiKey === undefined ? 'key_missing' : 'key_rejected',
      provider: c.entry.ref,
      keyName: keyName(c),
    };
  }
  if (failed.every(isNetwork)) {
    const ollama = failed.find((f) => isOllama(f.candidate));
    return {
      kind: 'unreachable',
      provider: (ollama ?? failed[0])?.candidate.entry.ref ?? '',
      ollamaModel: ollama?.model ?? null,
      missingKeys: missingKeys(skipped),
    };
  }
  const notPulled = failed.find((f) => isNotFound(f) && isOllama(f.candidate));
  if (notPulled !== undefined && failed.every((f) => isNetwork(f) || isNotFound(f))) {
    return { kind: 'model_missing', provider: notPulled.candidate.entry.ref, model: notPulled.model };
  }
  return undefined;
}
