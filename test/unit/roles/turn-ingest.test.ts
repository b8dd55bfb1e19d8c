// The gateway's ingest: an early kick only for a conversation hinted idle, on a connection that keeps the order,
// and `kicked` only when the kick certainly ran after the event was stored.
import { describe, expect, it } from 'vitest';
import type { ConversationInbox } from '../../../src/queue/conversation-inbox.ts';
import { createIdleHints } from '../../../src/queue/idle-hints.ts';
import type { TurnQueue } from '../../../src/queue/turn-queue.ts';
import { createTurnIngest } from '../../../src/roles/turn-ingest.ts';

type Accepted = 'first' | 'queued' | 'duplicate';

interface Setup {
  accepted?: Accepted;
  ordered?: boolean;
  reorder?: boolean;
  kickFails?: boolean;
  /** The ingest's reply comes when this resolves. */
  held?: Promise<void>;
}

function setup(o: Setup = {}) {
  const calls: string[] = [];
  const inbox = {
    accept: async (conversation: string, _event: unknown, onReordered?: () => void) => {
      calls.push(`accept ${conversation}`);
      await (o.held ?? Promise.resolve());
      if (o.reorder) onReordered?.();
      return o.accepted ?? 'first';
    },
  } as unknown as ConversationInbox;
  const kickBehind = async (conversation: string, agent?: string) => {
    calls.push(`kick ${conversation} ${agent}`);
    if (o.kickFails) throw new Error('redis down');
  };
  const turns: TurnQueue = {
    kick: async (conversation) => {
      calls.push(`host kick ${conversation}`);
    },
    kickBehind: (o.ordered ?? true) ? kickBehind : null,
    close: async () => {},
  };
  const hints = createIdleHints();
  const ingest = createTurnIngest(inbox, turns, hints);
  const message = { agent: 'main' } as Parameters<typeof ingest.accept>[1];
  return { calls, hints, accept: (c: string) => ingest.accept(c, message) };
}

describe('turn ingest', () => {
  it('accepts without a kick when the conversation is not hinted idle', async () => {
    const s = setup();
    expect(await s.accept('c1')).toBe('first'); // the host kicks after the reply
    expect(s.calls).toEqual(['accept c1']);
  });

  it('kicks right behind the ingest for a conversation hinted idle, before its reply, and says so', async () => {
    let answer: (() => void) | undefined;
    const s = setup({ held: new Promise<void>((r) => (answer = r)) });
    s.hints.noteIdle('c1');
    const accepted = s.accept('c1');
    await new Promise((r) => setImmediate(r));
    expect(s.calls).toEqual(['accept c1', 'kick c1 main']); // the ingest's command first, its reply not in yet
    answer?.();
    expect(await accepted).toBe('kicked');
    expect(await s.accept('c1')).toBe('first'); // the hint is used up
  });

  it('passes on what the ingest said when the event was not the first', async () => {
    for (const accepted of ['queued', 'duplicate'] as const) {
      const s = setup({ accepted });
      s.hints.noteIdle('c1');
      expect(await s.accept('c1')).toBe(accepted);
    }
  });

  it('leaves the kick to the host when the ingest went again after the kick, or the kick failed', async () => {
    for (const o of [{ reorder: true }, { kickFails: true }]) {
      const s = setup(o);
      s.hints.noteIdle('c1');
      expect(await s.accept('c1')).toBe('first');
    }
  });

  it('never kicks early on queues that do not share the ingest connection', async () => {
    const s = setup({ ordered: false });
    s.hints.noteIdle('c1');
    expect(await s.accept('c1')).toBe('first');
    expect(s.calls).toEqual(['accept c1']);
  });
});
