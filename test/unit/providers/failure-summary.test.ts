// The safe failure summary (delegate.md §10.3): line format and the 2048-byte cap.
import { expect, test } from 'vitest';
import {
  type FailureEvent,
  formatFailureSummary,
  ProviderChainError,
} from '../../../src/providers/failure-summary.ts';

const ev = (attempt: number, over: Partial<FailureEvent> = {}): FailureEvent => ({
  failureClass: 'retryable',
  attempt,
  maxAttempts: 3,
  ...over,
});

test('one line per event, kind/phase/hint only when all are known', () => {
  expect(
    formatFailureSummary([
      ev(1, { kind: 'http_500', phase: 'response', hint: 'retry later' }),
      ev(2, { failureClass: 'auth' }),
    ]),
  ).toBe(
    [
      'All model providers/models failed after 2 failure event(s). Events:',
      'event 1 (retry 1/3): retryable; kind=http_500; phase=response; hint=retry later',
      'event 2 (retry 2/3): auth',
    ].join('\n'),
  );
});

test('cut at 2048 bytes, always leaving room for the omitted marker', () => {
  const hint = 'h'.repeat(150);
  const events = Array.from({ length: 100 }, (_, i) => ev((i % 3) + 1, { kind: 'k', phase: 'p', hint }));
  const summary = formatFailureSummary(events);
  expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(2048);
  const lines = summary.split('\n');
  const kept = lines.length - 2;
  expect(lines[0]).toBe('All model providers/models failed after 100 failure event(s). Events:');
  expect(lines[kept]).toMatch(new RegExp(`^event ${kept} `));
  expect(lines.at(-1)).toBe(`[${100 - kept} additional failure event(s) omitted]`);
  // One more line would not have fitted together with the marker.
  expect(Buffer.byteLength(summary) + 1 + lines[1]!.length).toBeGreaterThan(2048);
});

test('no marker when everything fits; the error carries the summary as its message', () => {
  const err = new ProviderChainError([ev(1)]);
  expect(err.message).toBe(
    'All model providers/models failed after 1 failure event(s). Events:\nevent 1 (retry 1/3): retryable',
  );
  expect(err.message).not.toContain('omitted');
  expect(err.events).toHaveLength(1);
});
