// Voice notes to text (media.md §3): the `[transcription]` provider's OpenAI-compatible `/audio/transcriptions`,
// through the AI SDK's transcription support (the openai package's transcription model at the provider's uri).
// The `ai` package and the openai package load on the first voice note, not with every process.
import { providerCredential } from '../config/credentials.ts';
import { DEFAULT_PROVIDER_URI } from '../config/defaults.ts';
import { ownEntry, providerOf } from '../config/lookup.ts';
import type { BatonConfig } from '../config/types.ts';
import { APICallError } from './sdk-errors.ts';
import { loadOpenAIPackage, versioned, withoutEmptyCredentials } from './sdk-model.ts';

export interface Transcriber {
  /** The transcript, trimmed; throws TranscriptionError when the provider fails or hears nothing. */
  transcribe(audio: Uint8Array, signal: AbortSignal): Promise<string>;
}

/** What the log gets of a failed transcription: never shown to the model. */
export class TranscriptionError extends Error {
  override readonly name = 'TranscriptionError';
  readonly status: number | undefined;
  constructor(message: string, status?: number, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
  }
}

/** The transcriber `[transcription]` names, or null when it names none (or a provider that is gone). */
export function createTranscriber(
  config: Pick<BatonConfig, 'transcription' | 'providers'>,
  env: Record<string, string | undefined>,
  baseFetch: typeof fetch = globalThis.fetch,
): Transcriber | null {
  const ref = config.transcription.provider;
  const entry = ref === undefined ? undefined : providerOf(config, ref);
  const uri = (entry?.uri ?? ownEntry(DEFAULT_PROVIDER_URI, entry?.type ?? ''))?.replace(/\/+$/, '');
  if (!entry || !uri || entry.type === 'anthropic') return null;
  const baseURL = entry.type === 'ollama' ? versioned(uri) : uri;
  const settings = {
    baseURL,
    // Always a string: the package would otherwise read OPENAI_API_KEY from process.env itself.
    apiKey: providerCredential(entry, env) ?? '',
    headers: entry.extra_headers,
    fetch: withoutEmptyCredentials(baseFetch),
    name: entry.ref,
  };
  const modelId = config.transcription.model;
  return {
    async transcribe(audio, signal) {
      try {
        const [{ createOpenAI }, { experimental_transcribe: transcribe }] = await Promise.all([
          loadOpenAIPackage(),
          import('ai'),
        ]);
        const model = createOpenAI(settings).transcription(modelId);
        const result = await transcribe({ model, audio, abortSignal: signal, maxRetries: 0 });
        const text = result.text.trim();
        if (text === '') throw new TranscriptionError('empty transcript');
        return text;
      } catch (err) {
        if (err instanceof TranscriptionError) throw err;
        const status = APICallError.isInstance(err) ? err.statusCode : undefined;
        throw new TranscriptionError(err instanceof Error ? err.message : String(err), status, {
          cause: err,
        });
      }
    },
  };
}
