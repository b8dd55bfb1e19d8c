// Applies a dashboard edit to the config file: a format-preserving change, validated with the real loader,
// written atomically under a lock file, then every process of the deployment is asked to reload.
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Redis } from 'ioredis';
import { editHasErrors, fileLocked } from '../config/edit-messages.ts';
import { loadConfigText } from '../config/load.ts';
import {
  type DelegationPolicyMode,
  setDelegationPolicyMode,
  type TomlEditResult,
} from '../config/toml-edit.ts';
import type { Admission } from '../config/toml-edit-peers.ts';
import { addExternalPeer } from '../config/toml-edit-peers.ts';
import type { Diagnostic } from '../config/types.ts';
import { type DeploymentReload, requestDeploymentReload } from './reload-bus.ts';

export interface EditFileDeps {
  redis: Redis;
  prefix: string;
  /** The environment `${NAME}` values are checked against; default: process.env. */
  env?: Record<string, string | undefined>;
  /** How long to wait for reload acks; default: requestDeploymentReload's. */
  reloadTimeoutMs?: number;
  /** How long to wait for another writer's lock before giving up; default 10 s. */
  lockTimeoutMs?: number;
}

type EditRefused = { ok: false; error: string; diagnostics: Diagnostic[] };

/** `changed` false: the file already said so (the reload is still requested, which is harmless). */
export type EditFileResult = { ok: true; changed: boolean; reload: DeploymentReload } | EditRefused;

/** A lock older than this was left by a writer that died mid-edit. */
const STALE_LOCK_MS = 30_000;

export async function withLock<T>(path: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + timeoutMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      const handle = await open(lock, 'wx');
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await rm(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(fileLocked(lock));
      else await new Promise((r) => setTimeout(r, delay)); // backoff between lock attempts
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

/** Temp file in the same directory (rename is atomic only within one file system), same mode, then rename. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const { mode } = await stat(path);
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode & 0o7777);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.chmod(mode & 0o7777); // the umask may have narrowed the mode given to open
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}

/**
 * Sets `risk_profiles.<profile>.delegation_policy.mode` in the file at `path`. The file is re-read under a
 * lock, so concurrent edits apply one after the other and none is lost. A result with any config error is
 * refused and the file is left untouched.
 */
export function applyDelegationPolicyMode(
  path: string,
  profile: string,
  mode: DelegationPolicyMode,
  deps: EditFileDeps,
): Promise<EditFileResult> {
  return applyTomlFileEdit(path, (text) => setDelegationPolicyMode(text, profile, mode), deps);
}

/** Admits a refused sender: its id into the peer group's external_peers (the group created if new). */
export function admitExternalPeer(
  path: string,
  admission: Admission,
  deps: EditFileDeps,
): Promise<EditFileResult> {
  return applyTomlFileEdit(path, (text) => addExternalPeer(text, admission), deps);
}

/** One format-preserving edit of the file: under its lock, validated by the loader, written, then reloaded. */
export async function applyTomlFileEdit(
  path: string,
  change: (text: string) => TomlEditResult,
  deps: EditFileDeps,
): Promise<EditFileResult> {
  const written = await withLock(
    path,
    deps.lockTimeoutMs ?? 10_000,
    async (): Promise<EditRefused | 'written' | 'unchanged'> => {
      const text = await readFile(path, 'utf8');
      const edit = change(text);
      if (!edit.ok) return { ok: false, error: edit.error, diagnostics: [] };
      if (edit.text === text) return 'unchanged';
      const loaded = loadConfigText(edit.text, deps.env ?? process.env, { baseDir: dirname(path) });
      const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
      if (loaded.fatal || errors.length > 0)
        return {
          ok: false,
          error: editHasErrors,
          diagnostics: errors,
        };
      await writeAtomically(path, edit.text);
      return 'written';
    },
  );
  if (typeof written === 'object') return written;
  const reload = await requestDeploymentReload(deps.redis, deps.prefix, {
    ...(deps.reloadTimeoutMs ? { timeoutMs: deps.reloadTimeoutMs } : {}),
  });
  return { ok: true, changed: written === 'written', reload };
}
