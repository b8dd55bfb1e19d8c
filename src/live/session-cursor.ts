// Where a reader of a session's event stream is (its SSE id, sent back as Last-Event-ID): the last sequence number
// it has of each turn, as `<root run id>:<seq>` joined by commas. Anything unreadable counts as nothing read.
import { isUuid } from '../core/ids.ts';
import { RECENT_TURNS } from './run-event-log.ts';

export function formatSessionCursor(positions: ReadonlyMap<string, number>): string {
  return [...positions].map(([root, seq]) => `${root}:${seq}`).join(',');
}

export function parseSessionCursor(text: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (text === undefined || text.length > RECENT_TURNS * 64) return out;
  for (const part of text.split(',')) {
    const m = /^([^:]+):(\d{1,15})$/.exec(part);
    if (m && isUuid(m[1]!)) out.set(m[1]!.toLowerCase(), Number(m[2]));
  }
  return out;
}
