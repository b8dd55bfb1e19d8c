// Builds the language model for one candidate: the one place provider clients are chosen. OpenAI-compatible
// providers (custom, openrouter, ollama) use baton's own client (compatible-chat.ts); anthropic and openai use
// the AI SDK's provider packages, which load on first use, each once: a process loads only the packages its
// config names (each is 1.5–2 MB of heap and about 5 MB resident).
import type { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Candidate, ProviderType } from './candidates.ts';
import { createCompatibleChat } from './compatible-chat.ts';
import type { PartReader } from './part-reader.ts';

/** The provider packages' language model (LanguageModelV3): baton calls its `doStream` itself (model-request.ts). */
export type SdkModel = ReturnType<ReturnType<typeof createOpenAICompatible>>;
export type SdkCallOptions = Parameters<SdkModel['doStream']>[0];
export type SdkPrompt = SdkCallOptions['prompt'];
export type SdkTool = NonNullable<SdkCallOptions['tools']>[number];
export type SdkStreamPart =
  Awaited<ReturnType<SdkModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

/** The call options baton sets (model-request.ts); baton's own client handles exactly these. */
export type ModelCallOptions = Pick<
  SdkCallOptions,
  'prompt' | 'tools' | 'toolChoice' | 'temperature' | 'maxOutputTokens' | 'providerOptions' | 'abortSignal'
>;

/** One candidate's model: one streamed reply per call, as stream parts (stream-reply.ts reads them). */
export interface ChatModel {
  stream(options: ModelCallOptions): Promise<PartReader>;
}

/**
 * The SDK packages fill a missing key from process.env, which would bypass baton's rules
 * (injected env, requires_openai_auth). baton therefore always passes a string, and this fetch
 * drops the header an empty string produces, so a keyless endpoint gets no credential header.
 */
export function withoutEmptyCredentials(base: typeof fetch): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of [...headers]) if (isEmptyCredential(name, value)) headers.delete(name);
    return base(input, { ...init, headers });
  };
}

/** The header an empty key produces: `Authorization: Bearer ` or an empty `x-api-key` (`name` in lower case). */
export function isEmptyCredential(name: string, value: string | undefined): boolean {
  return (name === 'authorization' && value?.trim() === 'Bearer') || (name === 'x-api-key' && value === '');
}

/** Appends `/v1` unless the operator already wrote it, so both uri spellings work. */
export function versioned(uri: string): string {
  return uri.endsWith('/v1') ? uri : `${uri}/v1`;
}

const loaders = {
  anthropic: () => import('@ai-sdk/anthropic'),
  openai: () => import('@ai-sdk/openai'),
};
type PackageName = keyof typeof loaders;
const loaded = new Map<PackageName, Promise<unknown>>();

function load<K extends PackageName>(name: K): Promise<Awaited<ReturnType<(typeof loaders)[K]>>> {
  let p = loaded.get(name);
  if (p === undefined) {
    p = loaders[name]();
    loaded.set(name, p);
  }
  return p as Promise<Awaited<ReturnType<(typeof loaders)[K]>>>;
}

/** Starts loading the package of `type` (a chain's candidates, so the first request does not wait for it). */
export function preloadSdkPackage(type: ProviderType): void {
  if (type === 'anthropic' || type === 'openai') load(type).catch(() => {}); // a failure shows where the model is created
}

/** The `@ai-sdk/openai` package (transcription uses its transcription model). */
export const loadOpenAIPackage = () => load('openai');

const fromSdk = (model: SdkModel): ChatModel => ({
  stream: async (options) => (await model.doStream(options)).stream.getReader(),
});

export async function createChatModel(candidate: Candidate): Promise<ChatModel> {
  const fetch = withoutEmptyCredentials(globalThis.fetch);
  const headers = candidate.entry.extra_headers;
  const apiKey = candidate.apiKey ?? '';
  const name = candidate.entry.ref;
  const compatible = { apiKey, headers, name, modelId: candidate.model };
  switch (candidate.type) {
    case 'anthropic': {
      const { createAnthropic } = await load('anthropic');
      // baton's anthropic uri is the host (https://api.anthropic.com); the SDK wants the /v1 base.
      const model = createAnthropic({ baseURL: versioned(candidate.baseUri), apiKey, headers, fetch, name });
      return fromSdk(model(candidate.model) as unknown as SdkModel);
    }
    case 'openai': {
      const { createOpenAI } = await load('openai');
      // Chat Completions rather than the Responses API, so OpenAI-compatible proxies work too.
      const model = createOpenAI({ baseURL: candidate.baseUri, apiKey, headers, fetch, name });
      return fromSdk(model.chat(candidate.model) as unknown as SdkModel);
    }
    case 'ollama':
      // Ollama's OpenAI-compatible endpoint lives under /v1 of its host uri.
      return createCompatibleChat({ ...compatible, baseURL: versioned(candidate.baseUri) });
    case 'openrouter':
    case 'custom':
      return createCompatibleChat({ ...compatible, baseURL: candidate.baseUri });
  }
}
