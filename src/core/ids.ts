// Identifiers: run ids, task ids and worker ids.
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

export function newRunId(): string {
  return randomUUID();
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/** `<hostname>:<pid>:<random>`: the owner id written on task records. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}
