import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { receiveWithRetry } from '../../../src/channel-host/receive-retry.ts';
import type { ChannelHost, InboundEvent, ReceiveResult } from '../../../src/channel-host/types.ts';
import { createLogger } from '../../../src/core/logger.ts';

function logged() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  return { lines, logger: createLogger({ level: 'debug', destination }) };
}

const event: InboundEvent = {
  kind: 'message',
  channel: 'discord.main',
  eventId: 'm-1',
  chat: 'c1',
  sender: { id: 'u1' },
  text: 'hello',
  isDirect: true,
  addressedToBot: false,
  receivedAt: new Date(0).toISOString(),
};

/** A host whose first `failures` hand-overs throw, as when Redis is unreachable. */
function flakyHost(failures: number): ChannelHost & { calls: number } {
  const host = {
    calls: 0,
    async receive(): Promise<ReceiveResult> {
      host.calls++;
      if (host.calls <= failures) throw new Error('Connection is closed.');
      return { accepted: true, conversation: 'discord.main:c1:' };
    },
  };
  return host;
}

describe('receiveWithRetry', () => {
  it('hands the event over once the host recovers, logging each failed attempt', async () => {
    const host = flakyHost(2);
    const { lines, logger } = logged();
    const result = await receiveWithRetry(host, event, { logger, delaysMs: [1, 1, 1] });
    expect(result).toEqual({ accepted: true, conversation: 'discord.main:c1:' });
    expect(host.calls).toBe(3);
    const warnings = lines.filter((l) => l.msg === 'inbound event hand-over failed; retrying');
    expect(warnings.map((l) => [l.event_id, l.attempt])).toEqual([
      ['m-1', 1],
      ['m-1', 2],
    ]);
  });

  it('gives up after the last delay and logs the event as lost instead of throwing', async () => {
    const host = flakyHost(10);
    const { lines, logger } = logged();
    expect(await receiveWithRetry(host, event, { logger, delaysMs: [1, 1] })).toBeNull();
    expect(host.calls).toBe(3);
    expect(lines.filter((l) => l.msg === 'inbound event could not be handed over; lost')).toHaveLength(1);
  });

  it('stops retrying when the adapter stops', async () => {
    const host = flakyHost(10);
    const { logger } = logged();
    const stop = new AbortController();
    const pending = receiveWithRetry(host, event, {
      logger,
      signal: stop.signal,
      delaysMs: [60_000, 60_000],
    });
    await expect.poll(() => host.calls).toBe(1);
    stop.abort();
    expect(await pending).toBeNull();
    expect(host.calls).toBe(2);
  });
});
