// A session's dashboard addresses (the transcript's own is shared with the live tree's links).
import { transcriptUrl } from '../../live/transcript-link.ts';

export { transcriptUrl };
export const abortUrl = (agent: string, sessionKey: string) => `${transcriptUrl(agent, sessionKey)}/abort`;
/** The sessions list's stream (its page of rows, pushed when sessions change). */
export const SESSIONS_STREAM_URL = '/ui/sessions/stream';
/** The transcript page's stream: the session's live trees and running state. */
export const treeStreamUrl = (agent: string, sessionKey: string) =>
  `${transcriptUrl(agent, sessionKey)}/stream`;

/** `<kind>.<alias>:<chat>:<thread>` → its channel key and a readable chat (`chat · thread`); else the whole id. */
export function splitConversation(sessionKey: string): { channel: string; chat: string } {
  const first = sessionKey.indexOf(':');
  const last = sessionKey.lastIndexOf(':');
  if (first < 0 || last === first) return { channel: '', chat: sessionKey };
  const chat = sessionKey.slice(first + 1, last);
  const thread = sessionKey.slice(last + 1);
  return { channel: sessionKey.slice(0, first), chat: thread ? `${chat} · ${thread}` : chat };
}

/** A non-negative integer query value, else undefined (bad input falls back to the first page). */
export function pageParam(v: unknown, max = 10_000_000): number | undefined {
  if (typeof v !== 'string' || !/^\d{1,9}$/.test(v)) return undefined;
  const n = Number(v);
  return n <= max ? n : undefined;
}
