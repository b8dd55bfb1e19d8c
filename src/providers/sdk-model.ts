// Builds the AI SDK language model for one candidate: the one place provider packages are chosen.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Candidate } from './candidates.ts';

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

export function createSdkModel(candidate: Candidate, baseFetch: typeof fetch): SdkModel {
  const fetch = withoutEmptyCredentials(baseFetch);
  const headers = candidate.entry.extra_headers;
  const apiKey = candidate.apiKey ?? '';
  const name = candidate.entry.ref;
  // Streamed chat completions carry usage only when asked (`stream_options.include_usage`); the cost
  // ledger needs it. The openai package always asks.
  const compatible = { apiKey, headers, fetch, name, includeUsage: true };
  switch (candidate.type) {
    case 'anthropic':
      // baton's anthropic uri is the host (https://api.anthropic.com); the SDK wants the /v1 base.
      return createAnthropic({ baseURL: versioned(candidate.baseUri), apiKey, headers, fetch, name })(
        candidate.model,
      );
    case 'openai':
      // Chat Completions rather than the Responses API, so OpenAI-compatible proxies work too.
      return createOpenAI({ baseURL: candidate.baseUri, apiKey, headers, fetch, name }).chat(candidate.model);
    case 'ollama':
      // Ollama's OpenAI-compatible endpoint lives under /v1 of its host uri.
      return createOpenAICompatible({ ...compatible, baseURL: versioned(candidate.baseUri) })(
        candidate.model,
      );
    case 'openrouter':
    case 'custom':
      return createOpenAICompatible({ ...compatible, baseURL: candidate.baseUri })(candidate.model);
  }
}
