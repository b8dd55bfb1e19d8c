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

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string };

export interface ModelRequest {
  system: string;
  messages: ChatMessage[];
  /** Empty means a tool-free completion. */
  tools: ToolSpec[];
  /** Forbid the text/XML tool protocol (runtime_profiles.<p>.strict_tool_parsing). */
  strictToolParsing: boolean;
  /** Overrides the candidate's model id (cron `model`). */
  modelOverride?: string;
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
