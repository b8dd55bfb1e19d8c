// Bolt acks an events_api envelope before any listener runs (App.processEvent: "Events API requests are
// acknowledged right away"), whatever `processBeforeResponse` says (that option is read by the HTTP receivers
// only), and an acked envelope is never sent again: a hand-over that then fails would lose the message. Here the
// ack Bolt asks for is held until its listeners have run, and dropped when one reports that the event could not
// be handed over, so Slack sends the envelope again (retry_attempt + 1; the inbox dedupes one that did get in).
// Interactive envelopes (button presses) pass untouched: Slack wants their ack within 3 s and never resends them.
import type { SocketModeReceiver } from '@slack/bolt';
import type { Logger } from '../../src/core/logger.ts';

type SocketClient = SocketModeReceiver['client'];
type Ack = (response?: Record<string, unknown>) => Promise<void>;
interface SlackEventArgs {
  type?: string;
  body?: unknown;
  ack: Ack;
  [field: string]: unknown;
}
type Listener = (args: SlackEventArgs) => unknown;

export interface HeldAcks {
  /** The envelope whose payload is `body` is not acknowledged (its event could not be handed over). */
  refuse(body: unknown): void;
}

export function holdEventAcks(client: SocketClient, log: Logger): HeldAcks {
  const refused = new WeakSet<object>();
  // The receiver's own `slack_event` listener (it runs App.processEvent), wrapped.
  const listeners = client.listeners('slack_event') as Listener[];
  client.removeAllListeners('slack_event');
  client.on('slack_event', (args: SlackEventArgs) => {
    const body = args.body;
    if (args.type !== 'events_api' || typeof body !== 'object' || body === null) {
      for (const listener of listeners) void Promise.resolve(listener(args)).catch(() => {});
      return;
    }
    let asked: { response?: Record<string, unknown> } | null = null;
    const held: SlackEventArgs = {
      ...args,
      ack: async (response) => {
        asked = { ...(response ? { response } : {}) };
      },
    };
    void Promise.allSettled(listeners.map((listener) => listener(held)))
      .then(() => {
        if (!asked || refused.has(body)) return;
        return args.ack(asked.response);
      })
      .catch((err: unknown) => {
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'slack envelope ack failed');
      });
  });
  return {
    refuse(body) {
      if (typeof body === 'object' && body !== null) refused.add(body);
    },
  };
}
