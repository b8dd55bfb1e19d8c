// The AI SDK errors baton throws and recognises, without loading the `ai` package in every process (with its
// gateway provider, OIDC and OpenTelemetry modules it adds about 2 MB of heap and 6 MB resident): baton calls
// the provider packages' `doStream` itself. The base classes are @ai-sdk/provider's, the same objects `ai`
// re-exports; the three classes `ai` defines itself are declared here with its names and markers, so the
// `isInstance` of either copy recognises the other's errors.
import { AISDKError } from '@ai-sdk/provider';

export { AISDKError, APICallError, InvalidResponseDataError } from '@ai-sdk/provider';

const MARK = (name: string) => `vercel.ai.error.${name}`;
const INVALID_ARGUMENT = 'AI_InvalidArgumentError';
const MISSING_TOOL_RESULTS = 'AI_MissingToolResultsError';
const NO_OUTPUT = 'AI_NoOutputGeneratedError';

export class InvalidArgumentError extends AISDKError {
  readonly parameter: string;
  readonly value: unknown;
  constructor({ parameter, value, message }: { parameter: string; value: unknown; message: string }) {
    super({ name: INVALID_ARGUMENT, message: `Invalid argument for parameter ${parameter}: ${message}` });
    (this as unknown as Record<symbol, boolean>)[Symbol.for(MARK(INVALID_ARGUMENT))] = true;
    this.parameter = parameter;
    this.value = value;
  }
  static override isInstance(error: unknown): error is InvalidArgumentError {
    return AISDKError.hasMarker(error, MARK(INVALID_ARGUMENT));
  }
}

export class MissingToolResultsError extends AISDKError {
  readonly toolCallIds: string[];
  constructor({ toolCallIds }: { toolCallIds: string[] }) {
    const many = toolCallIds.length > 1;
    super({
      name: MISSING_TOOL_RESULTS,
      message: `Tool result${many ? 's are' : ' is'} missing for tool call${many ? 's' : ''} ${toolCallIds.join(', ')}.`,
    });
    (this as unknown as Record<symbol, boolean>)[Symbol.for(MARK(MISSING_TOOL_RESULTS))] = true;
    this.toolCallIds = toolCallIds;
  }
  static override isInstance(error: unknown): error is MissingToolResultsError {
    return AISDKError.hasMarker(error, MARK(MISSING_TOOL_RESULTS));
  }
}

export class NoOutputGeneratedError extends AISDKError {
  constructor({ message = 'No output generated.', cause }: { message?: string; cause?: unknown } = {}) {
    super({ name: NO_OUTPUT, message, cause });
    (this as unknown as Record<symbol, boolean>)[Symbol.for(MARK(NO_OUTPUT))] = true;
  }
  static override isInstance(error: unknown): error is NoOutputGeneratedError {
    return AISDKError.hasMarker(error, MARK(NO_OUTPUT));
  }
}
