// The worker side of media.md §1: a queued attachment's bytes, read from Redis, written into the agent's
// workspace under `inbox/` so its file tools can read them. Only bytes are read and written: nothing here
// opens, parses or runs a file.
import { randomUUID } from 'node:crypto';
import { lstat, mkdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A path that would leave `<workspace>/inbox/` (a bug in the safe name, or a symlink planted there). */
export class InboxPathError extends Error {
  override readonly name = 'InboxPathError';
}

/** True when `path` lies strictly inside `root`. */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Creates the file's folders and proves that the file, with every symlink on the way resolved, lies under
 * `<workspace>/inbox` (an `inbox` or conversation folder that is a link elsewhere is refused).
 */
async function inboxTarget(workspace: string, relPath: string): Promise<string> {
  await mkdir(workspace, { recursive: true });
  const inbox = join(await realpath(workspace), 'inbox');
  const target = resolve(inbox, '..', relPath);
  if (!inside(inbox, target)) throw new InboxPathError(`not under the inbox: ${relPath}`);
  await mkdir(dirname(target), { recursive: true });
  const real = join(await realpath(dirname(target)), basename(target));
  if (!inside(inbox, real)) throw new InboxPathError(`not under the inbox: ${relPath}`);
  return real;
}

/** The size of a regular file already at `path` (a rerun of the turn wrote it), or null. */
async function existingSize(path: string): Promise<number | null> {
  const st = await lstat(path).catch(() => null);
  return st?.isFile() ? st.size : null;
}

export interface InboxFile {
  size: number;
  /** The file's bytes when asked for (read back from the file on a rerun), else null. */
  bytes: Uint8Array | null;
}

/**
 * Writes `relPath` (from inboxRelativePath) under `workspace` unless a file of `size` bytes is already there.
 * `load` gives the bytes (null: the stored copy expired). `wantBytes`: return them even on a rerun.
 * Returns null when the bytes are gone and no copy was written before.
 */
export async function writeInboxFile(
  workspace: string,
  relPath: string,
  size: number | undefined,
  load: () => Promise<Uint8Array | null>,
  wantBytes: boolean,
): Promise<InboxFile | null> {
  const target = await inboxTarget(workspace, relPath);
  const have = await existingSize(target);
  if (have !== null && size !== undefined && have === size) {
    return { size: have, bytes: wantBytes ? await readFile(target) : null };
  }
  const bytes = await load();
  if (bytes === null) return null;
  // A temporary sibling renamed over the target: a reader never sees half a file, a crash leaves no torn one.
  const tmp = join(dirname(target), `.${randomUUID()}.tmp`);
  try {
    await writeFile(tmp, bytes, { flag: 'wx', mode: 0o600 });
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return { size: bytes.byteLength, bytes: wantBytes ? bytes : null };
}
