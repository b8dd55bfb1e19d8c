// Names from a platform never become paths as they are (media.md §1): a safe name keeps [A-Za-z0-9._-], at most
// 100 characters, no leading dot (no hidden file, no `..`); anything else becomes `_`.
import { join } from 'node:path';

export const SAFE_NAME_MAX = 100;

export function safeName(raw: string, fallback = 'file'): string {
  let s = raw.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  if (!/[A-Za-z0-9]/.test(s)) s = fallback;
  if (s.length > SAFE_NAME_MAX) {
    // Keep a short extension: it is what tells a reader (and the agent) what the file is.
    const ext = /\.[A-Za-z0-9]{1,10}$/.exec(s)?.[0] ?? '';
    s = s.slice(0, SAFE_NAME_MAX - ext.length) + ext;
  }
  return s;
}

/**
 * Where an inbound attachment is stored, relative to the agent's workspace:
 * `inbox/<conversation>/<message-id>-<safe name>` (media.md §1), every part made safe.
 */
export function inboxRelativePath(conversation: string, eventId: string, name: string): string {
  const file = `${safeName(eventId, 'message')}-${safeName(name)}`.slice(0, SAFE_NAME_MAX * 2 + 1);
  return join('inbox', safeName(conversation, 'conversation'), file);
}
