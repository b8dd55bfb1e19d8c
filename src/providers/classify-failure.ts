// Maps one failed request to a failure class and a retry decision, from typed SDK errors only.

import type { FailureEvent } from './failure-summary.ts';
import { AISDKError, APICallError } from './sdk-errors.ts';
import type { FailureClass } from './types.ts';

export interface ClassifiedFailure {
  failureClass: FailureClass;
  retryable: boolean;
  /** Generic, baton-written labels for the safe summary. */
  kind: string;
  phase: string;
  hint: string;
  /** Operator-only details for the log line; never put into an error message. */
  details: { status?: number; url?: string; body?: string; error: string };
}

const BODY_EXCERPT_CHARS = 500;

function excerpt(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  return body.length > BODY_EXCERPT_CHARS ? `${body.slice(0, BODY_EXCERPT_CHARS)}…` : body;
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

function fromStatus(status: number, isRetryable: boolean): Omit<ClassifiedFailure, 'details'> {
  const kind = `http_${status}`;
  if (status === 429) {
    return {
      failureClass: 'rate_limited',
      retryable: true,
      kind,
      phase: 'response',
      hint: 'wait or raise the provider rate limit',
    };
  }
  if (status === 401 || status === 403) {
    // A wrong credential stays wrong: retrying only burns time before the next candidate.
    return {
      failureClass: 'auth',
      retryable: false,
      kind,
      phase: 'response',
      hint: 'check the provider credential',
    };
  }
  if (status === 408) {
    return {
      failureClass: 'timeout',
      retryable: true,
      kind,
      phase: 'response',
      hint: 'provider request timed out',
    };
  }
  if (status >= 500) {
    return {
      failureClass: 'retryable',
      retryable: true,
      kind,
      phase: 'response',
      hint: 'provider server error; retry later or switch provider',
    };
  }
  if (status >= 200 && status < 300) {
    // The status was fine but the SDK could not parse the body: the reply itself is malformed.
    return {
      failureClass: 'invalid_request',
      retryable: false,
      kind: 'malformed_response',
      phase: 'response',
      hint: 'provider returned a response baton could not parse',
    };
  }
  if (status === 400 || status === 404 || status === 422) {
    return {
      failureClass: 'invalid_request',
      retryable: false,
      kind,
      phase: 'response',
      hint: 'check the configured model id and request parameters',
    };
  }
  return {
    failureClass: isRetryable ? 'retryable' : 'unknown',
    retryable: isRetryable,
    kind,
    phase: 'response',
    hint: 'see the gateway logs for details',
  };
}

/** `timedOut` is true when baton's own per-request timer (timeout_secs) ended the request. */
export function classifyFailure(err: unknown, timedOut: boolean): ClassifiedFailure {
  if (timedOut) {
    return {
      failureClass: 'timeout',
      retryable: true,
      kind: 'timeout',
      phase: 'request',
      hint: 'provider request timed out; retry or switch provider',
      details: { error: errorText(err) },
    };
  }
  if (APICallError.isInstance(err)) {
    const details = {
      status: err.statusCode,
      url: err.url,
      body: excerpt(err.responseBody),
      error: errorText(err),
    };
    if (err.statusCode !== undefined) return { ...fromStatus(err.statusCode, err.isRetryable), details };
    // No status: the SDK marks connection failures (refused, reset, socket) retryable.
    if (err.isRetryable) {
      return {
        failureClass: 'retryable',
        retryable: true,
        kind: 'network',
        phase: 'connect',
        hint: 'could not reach the provider; check network or uri',
        details,
      };
    }
    return {
      failureClass: 'unknown',
      retryable: false,
      kind: 'provider_error',
      phase: 'request',
      hint: 'see the gateway logs for details',
      details,
    };
  }
  if (AISDKError.isInstance(err)) {
    // Other SDK errors (no content, invalid response data, JSON/type validation) mean the reply was unusable.
    return {
      failureClass: 'invalid_request',
      retryable: false,
      kind: 'malformed_response',
      phase: 'response',
      hint: 'provider returned a response baton could not parse',
      details: { error: errorText(err) },
    };
  }
  return {
    failureClass: 'unknown',
    retryable: false,
    kind: 'provider_error',
    phase: 'unknown',
    hint: 'see the gateway logs for details',
    details: { error: errorText(err) },
  };
}

export function toFailureEvent(f: ClassifiedFailure, attempt: number, maxAttempts: number): FailureEvent {
  return { failureClass: f.failureClass, attempt, maxAttempts, kind: f.kind, phase: f.phase, hint: f.hint };
}
