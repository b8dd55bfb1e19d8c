// Which failures of a turn may be told to the person in the chat. An allowlist of error types whose message was
// written for that person (safe summaries, limits); anything else (a parser error, a Redis error, a bug) is
// internal: the chat gets a short generic text and the log keeps the detail.
import { TURN_FAILED_INTERNAL, turnFailed } from '../channel-host/channel-messages.ts';
import { CostRefusalError } from '../cost/cost-scope.ts';
import { ProviderChainError, StrictMixedChainError, setupProblemText } from '../providers/index.ts';
import { AgentLoopError } from './run-loop.ts';

const USER_FACING: readonly (abstract new (...args: never[]) => Error)[] = [
  ProviderChainError, // its message is the safe failure summary (delegate.md §10.3)
  CostRefusalError,
  AgentLoopError,
  StrictMixedChainError,
];

/** The failure's message when it is meant for users, else null (show a generic text instead). */
export function userFacingFailure(err: unknown): string | null {
  return USER_FACING.some((type) => err instanceof type) ? (err as Error).message : null;
}

/**
 * The chat reply for a failed turn. A setup problem (no model reachable, a key refused) gets one plain text
 * saying what to do instead of the event summary; the operator log keeps the details.
 */
export function turnFailureReply(err: unknown): string {
  if (err instanceof ProviderChainError && err.setup !== undefined) return setupProblemText(err.setup);
  const told = userFacingFailure(err);
  return told !== null ? turnFailed(told) : TURN_FAILED_INTERNAL;
}
