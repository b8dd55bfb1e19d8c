// The ModelProvider contract: the only shape the agent loop knows about model APIs.

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments, sent verbatim to the model. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed JSON arguments; when the model sent unparseable JSON this is the raw string. */
  arguments: unknown;
}

/** An image sent with a user message (media.md §1): bytes already recognised as an image by their signature. */
export interface ImageInput {
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp` (media/sniff.ts). */
  mediaType: string;
  data: Uint8Array;
}

export type ChatMessage =
  /** `images` only on a root turn's own message, never in stored history; dropped for a model without vision. */
  | { role: 'user'; content: string; images?: readonly ImageInput[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; reasoning?: ReasoningBlock[] }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string };

/** A signed thinking block (Anthropic) that must go back with its tool calls during one tool loop. */
export interface ReasoningBlock {
  text: string;
  /** The SDK's provider metadata of the block (its signature or redacted data), sent back verbatim. */
  providerOptions: Record<string, Record<string, unknown>>;
}

export interface ModelRequest {
  system: string;
  messages: ChatMessage[];
  /** Empty means a tool-free completion. */
  tools: ToolSpec[];
  /** Forbid the text/XML tool protocol (runtime_profiles.<p>.strict_tool_parsing). */
  strictToolParsing: boolean;
  /** Overrides the candidate's model id (cron `model`). */
  modelOverride?: string;
  /** Native reasoning for this request; each candidate maps it onto its provider type (native-thinking.ts). */
  thinking?: NativeThinking;
  /** Per-attempt time limit for candidates whose entry sets no `timeout_secs` (a root turn's deadline). */
  defaultTimeoutSecs?: number;
  /**
   * Called as the answer streams in, with the whole visible text so far of the current attempt: no
   * `<think>` content and, when tools travel as text, nothing from `<tool_call` on. A retry or fallback
   * starts again from '' (reported as ''). Never reasoning parts. Errors it throws are logged and ignored.
   */
  onText?: (visibleText: string) => void;
}

/** Native thinking of one request (delegate.md §9.7). */
export interface NativeThinking {
  /** Anthropic `budget_tokens`. */
  budgetTokens: number;
  /** OpenAI-style `reasoning_effort`. */
  effort: 'low' | 'medium' | 'high';
  /** Added to the candidate's temperature when it has one (0 keeps it unchanged). */
  temperatureBoost: number;
}

export interface ServedBy {
  /** Dotted provider alias, e.g. `custom.backup`. */
  provider: string;
  /** Provider type, e.g. `custom`. */
  providerType: string;
  model: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  /** Signed thinking blocks of a native-thinking reply (Anthropic); absent otherwise. */
  reasoning?: ReasoningBlock[];
  usage: TokenUsage;
  requested: ServedBy;
  served: ServedBy;
  /** True when a later candidate than the first served this response. */
  fallbackUsed: boolean;
}

export interface ModelProvider {
  /** The first candidate: what was configured. */
  readonly requested: ServedBy;
  /** `native` when every candidate calls tools natively, `text` when none does, `mixed` otherwise. */
  readonly toolProtocol: 'native' | 'text' | 'mixed';
  complete(req: ModelRequest, signal: AbortSignal): Promise<ModelResponse>;
}

/** Failure classes of the safe summary (delegate.md §10.3). */
export type FailureClass = 'retryable' | 'rate_limited' | 'auth' | 'invalid_request' | 'timeout' | 'unknown';
