// Builds the AI SDK language model for one candidate: the one place provider packages are chosen.
// The packages load on first use, each once: a process loads only the provider types its config names (each
// package is 1.5–2 MB of heap and about 5 MB resident).
import type { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Candidate, ProviderType } from './candidates.ts';

/** The provider packages' language model (LanguageModelV3): baton calls its `doStream` itself (model-request.ts). */
export type SdkModel = ReturnType<ReturnType<typeof createOpenAICompatible>>;
export type SdkCallOptions = Parameters<SdkModel['doStream']>[0];
export type SdkPrompt = SdkCallOptions['prompt'];
export type SdkTool = NonNullable<SdkCallOptions['tools']>[number];
export type SdkStreamPart =
  Awaited<ReturnType<SdkModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

/**
 * The SDK packages fill a missing key from process.env, which would bypass baton's rules
 * (injected env, requires_openai_auth). baton therefore always passes a string, and this fetch
 * drops the header an empty string produces, so a keyless endpoint gets no credential header.
 */
export function withoutEmptyCredentials(base: typeof fetch): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (headers.get('authorization')?.trim() === 'Bearer') headers.delete('authorization');
    if (headers.get('x-api-key') === '') headers.delete('x-api-key');
    return base(input, { ...init, headers });
  };
}

/** Appends `/v1` unless the operator already wrote it, so both uri spellings work. */
export function versioned(uri: string): string {
  return uri.endsWith('/v1') ? uri : `${uri}/v1`;
}

const loaders = {
  anthropic: () => import('@ai-sdk/anthropic'),
  openai: () => import('@ai-sdk/openai'),
  compatible: () => import('@ai-sdk/openai-compatible'),
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

const packageOf = (type: ProviderType): PackageName =>
  type === 'anthropic' ? 'anthropic' : type === 'openai' ? 'openai' : 'compatible';

/** Starts loading the package of `type` (a chain's candidates, so the first request does not wait for it). */
export function preloadSdkPackage(type: ProviderType): void {
  load(packageOf(type)).catch(() => {}); // a failure shows where the model is created
}

/** The `@ai-sdk/openai` package (transcription uses its transcription model). */
export const loadOpenAIPackage = () => load('openai');

export async function createSdkModel(candidate: Candidate, baseFetch: typeof fetch): Promise<SdkModel> {
  const fetch = withoutEmptyCredentials(baseFetch);
  const headers = candidate.entry.extra_headers;
  const apiKey = candidate.apiKey ?? '';
  const name = candidate.entry.ref;
  // Streamed chat completions carry usage only when asked (`stream_options.include_usage`); the cost
  // ledger needs it. The openai package always asks.
  const compatible = { apiKey, headers, fetch, name, includeUsage: true };
  switch (candidate.type) {
    case 'anthropic': {
      const { createAnthropic } = await load('anthropic');
      // baton's anthropic uri is the host (https://api.anthropic.com); the SDK wants the /v1 base.
      return createAnthropic({ baseURL: versioned(candidate.baseUri), apiKey, headers, fetch, name })(
        candidate.model,
      );
    }
    case 'openai': {
      const { createOpenAI } = await load('openai');
      // Chat Completions rather than the Responses API, so OpenAI-compatible proxies work too.
      return createOpenAI({ baseURL: candidate.baseUri, apiKey, headers, fetch, name }).chat(candidate.model);
    }
    case 'ollama': {
      const { createOpenAICompatible } = await load('compatible');
      // Ollama's OpenAI-compatible endpoint lives under /v1 of its host uri.
      return createOpenAICompatible({ ...compatible, baseURL: versioned(candidate.baseUri) })(
        candidate.model,
      );
    }
    case 'openrouter':
    case 'custom': {
      const { createOpenAICompatible } = await load('compatible');
      return createOpenAICompatible({ ...compatible, baseURL: candidate.baseUri })(candidate.model);
    }
  }
}
