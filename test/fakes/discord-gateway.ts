// The fake Discord gateway: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats and their ACKs, sequence numbers,
// RESUME → replay of the missed dispatches + RESUMED, and dropping the socket on demand.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

export type GatewayEventKind = 'connect' | 'identify' | 'resume' | 'heartbeat' | 'close' | 'invalid_session';

export interface GatewayEvent {
  kind: GatewayEventKind;
  at: number;
  /** identify/resume: the session; resume: also the seq the client reported. */
  sessionId?: string;
  seq?: number | null;
  code?: number;
  /** resume: how many dispatches were replayed. */
  replayed?: number;
}

interface Dispatch {
  op: 0;
  t: string;
  s: number;
  d: unknown;
}

interface Session {
  id: string;
  seq: number;
  log: Dispatch[];
  socket: WebSocket | null;
}

export interface GatewayOptions {
  token: string;
  path: string;
  heartbeatIntervalMs: number;
  /** READY's `d` for a new session (the gateway adds session_id and resume_gateway_url). */
  ready: () => Record<string, unknown>;
  /** The GUILD_CREATE payloads sent after READY. */
  guilds: () => Array<Record<string, unknown>>;
  /** The ws:// URL clients connect to (also the resume URL). */
  url: () => string;
  onEvent: (e: GatewayEvent) => void;
}

export class FakeDiscordGateway {
  readonly events: GatewayEvent[] = [];
  /** When false, heartbeats go unanswered (discord.js then treats the link as a zombie and resumes). */
  ackHeartbeats = true;
  private readonly wss = new WebSocketServer({ noServer: true });
  private session: Session | null = null;
  private nextSession = 0;
  /** The next RESUME replays from here even when the client has seen more (a redelivery). */
  private replayAfter: number | null = null;

  private readonly opts: GatewayOptions;

  constructor(opts: GatewayOptions) {
    this.opts = opts;
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path !== this.opts.path) {
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
  }

  /** Whether a client holds a live (identified or resumed) connection. */
  get connected(): boolean {
    return this.session?.socket?.readyState === 1;
  }

  /** The sequence number of the last dispatch (0 before any). */
  get seq(): number {
    return this.session?.seq ?? 0;
  }

  /** Sends a dispatch when a session exists (what Discord echoes back, e.g. the bot's own messages). */
  echo(t: string, d: unknown): void {
    if (this.session) this.dispatch(t, d);
  }

  /** Sends a dispatch to the session (kept in its log for a RESUME); returns its sequence number. */
  dispatch(t: string, d: unknown): number {
    const session = this.session;
    if (!session) throw new Error('fake discord gateway: no session (the client has not identified)');
    const frame: Dispatch = { op: 0, t, s: ++session.seq, d };
    session.log.push(frame);
    if (session.socket?.readyState === 1) session.socket.send(JSON.stringify(frame));
    return frame.s;
  }

  /** A raw frame on the live socket, e.g. a malformed payload. */
  sendRaw(frame: string): void {
    const socket = this.session?.socket;
    if (socket?.readyState !== 1) throw new Error('fake discord gateway: no live connection');
    socket.send(frame);
  }

  /**
   * Drops the live connection: without `code` the TCP socket is cut (the client sees 1006 and resumes);
   * with a code it is closed with that code (1000: the client starts a new session). `replayAfterSeq` makes the
   * next RESUME replay every dispatch after that sequence number, including ones the client already had.
   */
  drop(opts: { code?: number; replayAfterSeq?: number } = {}): void {
    const socket = this.session?.socket;
    if (!socket) throw new Error('fake discord gateway: no live connection to drop');
    this.replayAfter = opts.replayAfterSeq ?? null;
    if (this.session) this.session.socket = null;
    if (opts.code) socket.close(opts.code, 'fake drop');
    else socket.terminate();
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private record(e: Omit<GatewayEvent, 'at'>): void {
    const event = { ...e, at: Date.now() };
    this.events.push(event);
    this.opts.onEvent(event);
  }

  private accept(ws: WebSocket): void {
    this.record({ kind: 'connect' });
    ws.send(
      JSON.stringify({ op: 10, d: { heartbeat_interval: this.opts.heartbeatIntervalMs }, s: null, t: null }),
    );
    ws.on('message', (data) => this.onFrame(ws, String(data)));
    ws.on('close', (code) => {
      if (this.session?.socket === ws) this.session.socket = null;
      this.record({ kind: 'close', code });
    });
    ws.on('error', () => {});
  }

  private onFrame(ws: WebSocket, raw: string): void {
    let frame: { op?: number; d?: Record<string, unknown> | number | null };
    try {
      frame = JSON.parse(raw);
    } catch {
      ws.close(4002, 'Error while decoding payload.');
      return;
    }
    const d = typeof frame.d === 'object' && frame.d !== null ? frame.d : {};
    switch (frame.op) {
      case 1:
        this.record({ kind: 'heartbeat', seq: typeof frame.d === 'number' ? frame.d : null });
        if (this.ackHeartbeats) ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
        return;
      case 2:
        if (d.token !== this.opts.token) {
          ws.close(4004, 'Authentication failed.');
          return;
        }
        this.identify(ws);
        return;
      case 6:
        this.resume(ws, String(d.session_id), typeof d.seq === 'number' ? d.seq : 0, d.token);
        return;
      default:
        return; // presence updates and the like: accepted, nothing to do
    }
  }

  private identify(ws: WebSocket): void {
    this.session?.socket?.terminate();
    const id = `fake-session-${++this.nextSession}`;
    this.session = { id, seq: 0, log: [], socket: ws };
    this.record({ kind: 'identify', sessionId: id });
    this.dispatch('READY', {
      v: 10,
      ...this.opts.ready(),
      session_id: id,
      resume_gateway_url: this.opts.url(),
      shard: [0, 1],
    });
    for (const guild of this.opts.guilds()) this.dispatch('GUILD_CREATE', guild);
  }

  private resume(ws: WebSocket, sessionId: string, seq: number, token: unknown): void {
    const session = this.session;
    if (token !== this.opts.token || !session || session.id !== sessionId) {
      this.record({ kind: 'invalid_session', sessionId });
      ws.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
      return;
    }
    session.socket = ws;
    const from = Math.min(seq, this.replayAfter ?? seq);
    this.replayAfter = null;
    const replay = session.log.filter((frame) => frame.s > from);
    for (const frame of replay) ws.send(JSON.stringify(frame));
    this.dispatch('RESUMED', {});
    this.record({ kind: 'resume', sessionId, seq, replayed: replay.length });
  }
}
