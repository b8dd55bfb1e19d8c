// Public surface of the model-provider layer; the AI SDK stays behind it.
export { isSupportedType, providerCreateError, SUPPORTED_PROVIDER_TYPES } from './candidates.ts';
export type { FailureEvent } from './failure-summary.ts';
export { formatFailureSummary, ProviderChainError } from './failure-summary.ts';
export { chooseModel, modelChoice } from './model-selection.ts';
export type { ProviderChainOptions } from './provider-chain.ts';
export { createProviderChain } from './provider-chain.ts';
export { setupProblemText } from './provider-messages.ts';
export type { SetupProblem } from './setup-problem.ts';
export { stripThinkBlocks } from './think-blocks.ts';
export { STRICT_MIXED_CHAIN_MESSAGE, StrictMixedChainError } from './tool-protocol.ts';
export { createTranscriber, type Transcriber, TranscriptionError } from './transcribe.ts';
export type * from './types.ts';
