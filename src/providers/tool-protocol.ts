// Chooses native or text/XML tool calling for a chain and a request (delegate.md §9.6).
import type { ModelRequest } from './types.ts';

export type ToolProtocol = 'native' | 'text' | 'mixed';

/** English text of the `turn-tool-protocol-strict-mixed-error` catalog entry. */
export const STRICT_MIXED_CHAIN_MESSAGE =
  'Strict tool parsing cannot run a fallback chain that mixes native-tool and text-only candidates. Configure every reachable candidate to use the same tool protocol, or set strict_tool_parsing to false.';

/** Raised before any provider request; callers wrap it as `Agent '<t>' failed: <message>`. */
export class StrictMixedChainError extends Error {
  override readonly name = 'StrictMixedChainError';
  constructor() {
    super(STRICT_MIXED_CHAIN_MESSAGE);
  }
}

export function chainToolProtocol(nativeFlags: readonly boolean[]): ToolProtocol {
  if (nativeFlags.every((n) => n)) return 'native';
  if (nativeFlags.every((n) => !n)) return 'text';
  return 'mixed';
}

/**
 * How one request is sent:
 * - `native`: tools go in the provider's tools field, history uses native tool messages;
 * - `text`: tools are described in the system prompt and `<tool_call>` blocks are parsed;
 * - `plain`: no tools at all, history rendered as text, `<tool_call>` text left as text
 *   (strict parsing on a chain that cannot call tools natively).
 */
export type RequestToolMode = 'native' | 'text' | 'plain';

export function requestToolMode(protocol: ToolProtocol, req: ModelRequest): RequestToolMode {
  if (protocol === 'native') return 'native';
  if (!req.strictToolParsing) return 'text';
  if (protocol === 'mixed' && req.tools.length > 0) throw new StrictMixedChainError();
  return 'plain';
}
