// Slack HTTP mode's request checks: the v0 signature (constant-time, both clock directions) and the allowlist parse.
import { describe, expect, it } from 'vitest';
import {
  MAX_TIMESTAMP_SKEW_SECS,
  parseSlackRequest,
  verifySlackSignature,
} from '../../../channels/slack/http-mode.ts';
import { slackSignature } from '../../fakes/slack-http.ts';

const SECRET = 's3cret';
const NOW = 1_700_000_000_000;
const body = Buffer.from('{"type":"event_callback"}');
const signed = (ts: number, b = body, secret = SECRET) => ({
  'x-slack-request-timestamp': String(ts),
  'x-slack-signature': slackSignature(secret, ts, b.toString()),
});

describe('verifySlackSignature', () => {
  const ts = NOW / 1000;
  it('accepts a signature over v0:<ts>:<raw body> made with the secret', () => {
    expect(verifySlackSignature(SECRET, signed(ts), body, NOW)).toBe('ok');
  });
  it('rejects another secret, another body, and a truncated signature', () => {
    expect(verifySlackSignature(SECRET, signed(ts, body, 'other'), body, NOW)).toBe('bad_signature');
    expect(verifySlackSignature(SECRET, signed(ts), Buffer.from('{}'), NOW)).toBe('bad_signature');
    const h = signed(ts);
    expect(
      verifySlackSignature(
        SECRET,
        { ...h, 'x-slack-signature': h['x-slack-signature'].slice(0, 20) },
        body,
        NOW,
      ),
    ).toBe('bad_signature');
  });
  it('rejects timestamps more than five minutes away in either direction', () => {
    expect(verifySlackSignature(SECRET, signed(ts - MAX_TIMESTAMP_SKEW_SECS), body, NOW)).toBe('ok');
    expect(verifySlackSignature(SECRET, signed(ts - MAX_TIMESTAMP_SKEW_SECS - 1), body, NOW)).toBe('stale');
    expect(verifySlackSignature(SECRET, signed(ts + MAX_TIMESTAMP_SKEW_SECS + 1), body, NOW)).toBe('stale');
  });
  it('rejects missing or non-numeric headers', () => {
    expect(verifySlackSignature(SECRET, {}, body, NOW)).toBe('missing_headers');
    expect(
      verifySlackSignature(SECRET, { ...signed(ts), 'x-slack-request-timestamp': '1e9' }, body, NOW),
    ).toBe('missing_headers');
  });
});

describe('parseSlackRequest', () => {
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));
  const form = (v: unknown) => Buffer.from(new URLSearchParams({ payload: JSON.stringify(v) }).toString());
  it('recognises the URL check, message and mention callbacks, and block_actions', () => {
    expect(parseSlackRequest('application/json', json({ type: 'url_verification', challenge: 'c' }))).toEqual(
      {
        kind: 'challenge',
        challenge: 'c',
      },
    );
    const event = { type: 'app_mention', channel: 'C1' };
    expect(
      parseSlackRequest('application/json; charset=utf-8', json({ type: 'event_callback', event })),
    ).toEqual({ kind: 'event', event });
    expect(
      parseSlackRequest('application/x-www-form-urlencoded', form({ type: 'block_actions' })),
    ).toMatchObject({
      kind: 'action',
    });
  });
  it('skips everything else without throwing', () => {
    const skipped = [
      parseSlackRequest('application/json', Buffer.from('{not json')),
      parseSlackRequest('application/json', json([1, 2])),
      parseSlackRequest('text/plain', Buffer.from('x')),
      parseSlackRequest(undefined, Buffer.from('x')),
      parseSlackRequest('application/x-www-form-urlencoded', Buffer.from('command=%2Fnew')),
      parseSlackRequest('application/x-www-form-urlencoded', Buffer.from('payload=%7Bbroken')),
      parseSlackRequest(
        'application/json',
        json({ type: 'event_callback', event: { type: 'reaction_added' } }),
      ),
      parseSlackRequest('application/x-www-form-urlencoded', form({ type: 'view_submission' })),
    ];
    for (const s of skipped) expect(s.kind).toBe('skip');
  });
});
