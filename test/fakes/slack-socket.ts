// The Socket Mode side of the fake Slack: hello on connect, envelopes out, acks by envelope_id, redelivery.
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { FAKE_APP } from './slack-payloads.ts';

export type EnvelopeType = 'events_api' | 'interactive' | 'slash_commands';

export interface Envelope {
  envelope_id: string;
  type: EnvelopeType;
  payload: Record<string, unknown>;
  accepts_response_payload: boolean;
  retry_attempt: number;
  retry_reason: string;
}

export interface Ack {
  envelope_id: string;
  payload?: unknown;
}

/**
 * Like Slack: envelopes pushed while no socket is connected wait for the next one, and envelopes not acked
 * when a socket closes are sent again on the next connection with retry_attempt + 1.
 */
export class FakeSlackSocket {
  readonly wss = new WebSocketServer({ noServer: true });
  readonly sockets = new Set<WebSocket>();
  readonly sent: Envelope[] = [];
  readonly acks: Ack[] = [];
  /** Raw frames from clients that were not acks (or not JSON). */
  readonly otherFrames: string[] = [];
  /** Connections that got a hello, in total. */
  connections = 0;
  private readonly unacked = new Map<string, Envelope>();
  private readonly waiting: Envelope[] = [];
  private readonly events = new EventEmitter();
  private envelopeCounter = 0;

  constructor() {
    this.events.setMaxListeners(0);
    this.wss.on('connection', (ws) => this.onConnection(ws));
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  }

  /** Pushes an envelope to the connected client (or queues it until one connects); returns it. */
  push(type: EnvelopeType, payload: Record<string, unknown>, opts: Partial<Envelope> = {}): Envelope {
    const envelope: Envelope = {
      envelope_id: opts.envelope_id ?? `env-${++this.envelopeCounter}-${Date.now()}`,
      type,
      payload,
      accepts_response_payload: opts.accepts_response_payload ?? type !== 'events_api',
      retry_attempt: opts.retry_attempt ?? 0,
      retry_reason: opts.retry_reason ?? '',
    };
    this.deliver(envelope);
    return envelope;
  }

  /** Slack's retry of an event: same payload (so the same event_id), a new envelope id, retry_attempt + 1. */
  redeliver(previous: Envelope, reason = 'timeout'): Envelope {
    return this.push(previous.type, previous.payload, {
      retry_attempt: previous.retry_attempt + 1,
      retry_reason: reason,
    });
  }

  /** Sends a raw text frame (malformed envelopes, unknown types) to every connected client. */
  sendRaw(frame: string): void {
    for (const ws of this.sockets) ws.send(frame);
  }

  /** Slack's "please reconnect" message (e.g. `refresh_requested`, `link_disabled`). */
  sendDisconnect(reason = 'refresh_requested'): void {
    this.sendRaw(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'fake' } }));
  }

  /** Cuts every connection without a close handshake, as a network failure would; returns how many. */
  drop(): number {
    const cut = this.sockets.size;
    for (const ws of this.sockets) ws.terminate();
    return cut;
  }

  isAcked(envelopeId: string): boolean {
    return this.acks.some((a) => a.envelope_id === envelopeId);
  }

  waitForAck(envelopeId: string, timeoutMs = 15_000): Promise<Ack> {
    return this.waitUntil(
      () => this.acks.find((a) => a.envelope_id === envelopeId),
      timeoutMs,
      `ack ${envelopeId}`,
    );
  }

  /** Resolves once `count` connections in total got a hello. */
  waitForConnections(count: number, timeoutMs = 15_000): Promise<number> {
    return this.waitUntil(
      () => (this.connections >= count && this.sockets.size > 0 ? this.connections : undefined),
      timeoutMs,
      `${count} socket mode connections`,
    );
  }

  /** Resolves once no client socket is open (after the adapter stopped). */
  waitForNoSockets(timeoutMs = 15_000): Promise<true> {
    return this.waitUntil(() => (this.sockets.size === 0 ? true : undefined), timeoutMs, 'sockets closed');
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private deliver(envelope: Envelope): void {
    const open = [...this.sockets].find((ws) => ws.readyState === ws.OPEN);
    this.unacked.set(envelope.envelope_id, envelope);
    if (!open) {
      this.waiting.push(envelope);
      return;
    }
    this.sent.push(envelope);
    open.send(JSON.stringify(envelope));
  }

  private onConnection(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('message', (data) => this.onFrame(String(data)));
    ws.on('close', () => {
      this.sockets.delete(ws);
      // Slack retries what was not acknowledged on the next connection.
      for (const env of this.unacked.values()) {
        if (this.waiting.includes(env)) continue;
        this.unacked.delete(env.envelope_id);
        this.waiting.push({
          ...env,
          envelope_id: `${env.envelope_id}-r`,
          retry_attempt: env.retry_attempt + 1,
          retry_reason: 'timeout',
        });
      }
      this.events.emit('change');
    });
    ws.on('error', () => {});
    ws.send(JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: FAKE_APP } }));
    this.connections++;
    const queued = this.waiting.splice(0);
    for (const env of queued) this.deliver(env);
    this.events.emit('change');
  }

  private onFrame(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.otherFrames.push(text);
      return;
    }
    const ack = parsed as Ack;
    if (typeof ack?.envelope_id !== 'string') {
      this.otherFrames.push(text);
      return;
    }
    this.unacked.delete(ack.envelope_id);
    this.acks.push(ack);
    this.events.emit('change');
  }

  private waitUntil<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = probe();
        if (value === undefined) return;
        clearTimeout(timer);
        this.events.off('change', check);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.events.off('change', check);
        reject(new Error(`fake slack: timed out waiting for ${what}`));
      }, timeoutMs);
      this.events.on('change', check);
      check();
    });
  }
}
