// The safe failure summary of delegate.md §10.3 and the error that carries it.
import type { SetupProblem } from './setup-problem.ts';
import type { FailureClass } from './types.ts';

/** One failed attempt. Every field is a baton-controlled constant, never provider text. */
export interface FailureEvent {
  failureClass: FailureClass;
  /** 1-based attempt number on the candidate that failed. */
  attempt: number;
  maxAttempts: number;
  kind?: string;
  phase?: string;
  hint?: string;
}

export const SUMMARY_MAX_BYTES = 2048;

const omittedMarker = (count: number): string => `[${count} additional failure event(s) omitted]`;

export function formatFailureEvent(index: number, event: FailureEvent): string {
  let line = `event ${index} (retry ${event.attempt}/${event.maxAttempts}): ${event.failureClass}`;
  if (event.kind !== undefined && event.phase !== undefined && event.hint !== undefined) {
    line += `; kind=${event.kind}; phase=${event.phase}; hint=${event.hint}`;
  }
  return line;
}

/**
 * Builds the summary, keeping whole event lines while they fit in 2048 bytes and always leaving
 * room for the omitted-count marker when later lines will not fit.
 */
export function formatFailureSummary(events: readonly FailureEvent[]): string {
  const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
  let out = `All model providers/models failed after ${events.length} failure event(s). Events:`;
  let kept = 0;
  for (const [i, event] of events.entries()) {
    const line = formatFailureEvent(i + 1, event);
    const remainingAfter = events.length - (i + 1);
    const reserve = remainingAfter > 0 ? 1 + bytes(omittedMarker(remainingAfter)) : 0;
    if (bytes(out) + 1 + bytes(line) + reserve > SUMMARY_MAX_BYTES) break;
    out += `\n${line}`;
    kept += 1;
  }
  const omitted = events.length - kept;
  if (omitted > 0) out += `\n${omittedMarker(omitted)}`;
  return out;
}

/** Every candidate failed. `.message` is the safe summary: it may reach a model or a chat. */
export class ProviderChainError extends Error {
  override readonly name = 'ProviderChainError';
  readonly events: readonly FailureEvent[];
  /** Set when the failure is a setup problem the chat can explain (the message stays the safe summary). */
  readonly setup: SetupProblem | undefined;
  constructor(events: readonly FailureEvent[], setup?: SetupProblem) {
    super(formatFailureSummary(events));
    this.events = events;
    this.setup = setup;
  }
}
