// Two places where @slack/socket-mode 3.1 lets a rejection go unhandled (which ends a Node process):
// a frame it cannot dispatch, and a reconnect whose apps.connections.open fails for good.
import type { SocketModeReceiver } from '@slack/bolt';
import type { Logger } from '../../src/core/logger.ts';
import { RECONNECT_FAILED, SOCKET_FRAME_SKIPPED } from './slack-messages.ts';

type SocketClient = SocketModeReceiver['client'];
type FrameHandler = (data: unknown, isBinary: boolean) => unknown;
type AckSender = { send(envelopeId: string): Promise<void> };

const RESTART_MAX_MS = 30_000;
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * An events_api envelope without `payload.event` makes the client's async frame handler throw. Here such a
 * frame is logged, acked (so Slack does not redeliver it) and skipped.
 */
export function guardFrames(client: SocketClient, log: Logger): void {
  const handlers = client.listeners('ws_message') as FrameHandler[];
  client.removeAllListeners('ws_message');
  client.on('ws_message', (data: unknown, isBinary: boolean) => {
    for (const handler of handlers) {
      Promise.resolve()
        .then(() => handler(data, isBinary))
        .catch((err) => {
          log.warn({ err: errorText(err) }, SOCKET_FRAME_SKIPPED);
          const envelopeId = envelopeIdOf(data);
          // `send` is the client's own ack path (private in its typings, public at runtime).
          if (envelopeId) (client as unknown as AckSender).send(envelopeId).catch(() => {});
        });
    }
  });
}

function envelopeIdOf(data: unknown): string | undefined {
  try {
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer);
    const id = (JSON.parse(text) as { envelope_id?: unknown })?.envelope_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The client reconnects by itself, but when apps.connections.open fails for good during a reconnect, the
 * promise rejects with nobody listening. Here that becomes a log line and a later attempt (backing off).
 * The first start still rejects, so a bad token fails the adapter's start. Returns a canceller for stop().
 */
export function keepReconnecting(client: SocketClient, log: Logger): () => void {
  const start = client.start.bind(client);
  let connected = false;
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  client.start = async () => {
    try {
      const result = await start();
      connected = true;
      failures = 0;
      return result;
    } catch (err) {
      if (!connected || stopped) throw err;
      failures++;
      log.error({ err: errorText(err) }, RECONNECT_FAILED);
      timer = setTimeout(
        () => {
          timer = undefined;
          if (!stopped) void client.start();
        },
        Math.min(RESTART_MAX_MS, 1000 * 2 ** failures),
      );
      return undefined as never;
    }
  };
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
