// The memory store: one Markdown file per key under `<agent workspace>/memory/`, never followed through symlinks.
import { lstat, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { agentOf } from '../../config/lookup.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { writeFileAtomic } from './atomic-write.ts';

export interface MemoryEntry {
  key: string;
  content: string;
  updatedAtMs: number;
}

const MAX_SLUG = 100;
/** Larger files are not memories the model wrote; recall skips them. */
const MAX_ENTRY_BYTES = 256 * 1024;

export const memoryDir = (workspace: string) => join(workspace, 'memory');

/** File-name form of a key: lower-case letters, digits, `_` and `-`; null when nothing usable remains. */
export function memorySlug(key: string): string | null {
  const slug = key
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug === '' ? null : slug;
}

/** The configured workspace of `alias` (memory belongs to the agent, not to a per-session workspace). */
export function agentWorkspace(run: RunContext, alias: string): string | undefined {
  const agent = agentOf(run.services.config, alias);
  if (agent) return agent.workspace.path;
  return alias === run.agentAlias ? run.policy.workspaceDir : undefined;
}

const render = (key: string, content: string) => `# ${key.replace(/\s+/g, ' ').trim()}\n\n${content}\n`;

function parse(slug: string, raw: string): { key: string; content: string } {
  const m = /^# (.*)\n\n?([\s\S]*)$/.exec(raw);
  if (!m) return { key: slug, content: raw.trim() };
  return { key: m[1] ?? slug, content: (m[2] ?? '').replace(/\n$/, '') };
}

async function isSymlink(p: string): Promise<boolean> {
  const info = await lstat(p).catch(() => null);
  return info?.isSymbolicLink() ?? false;
}

export class MemoryPathError extends Error {
  override readonly name = 'MemoryPathError';
}

async function assertPlainDir(workspace: string): Promise<void> {
  if (await isSymlink(memoryDir(workspace))) {
    throw new MemoryPathError('The memory directory is a symbolic link; memory tools do not follow links');
  }
}

export async function writeMemory(
  workspace: string,
  slug: string,
  key: string,
  content: string,
): Promise<void> {
  await assertPlainDir(workspace);
  const file = join(memoryDir(workspace), `${slug}.md`);
  if (await isSymlink(file))
    throw new MemoryPathError(`The memory entry '${key}' is a symbolic link; not written`);
  await writeFileAtomic(file, render(key, content));
}

/** Every entry of one workspace; unreadable, oversized or linked files are skipped. */
export async function readMemories(workspace: string): Promise<MemoryEntry[]> {
  const dir = memoryDir(workspace);
  if (await isSymlink(dir)) return [];
  const names = await readdir(dir).catch(() => [] as string[]);
  const entries: MemoryEntry[] = [];
  for (const name of names) {
    if (!name.endsWith('.md') || name.startsWith('.')) continue;
    const file = join(dir, name);
    const info = await lstat(file).catch(() => null);
    if (!info?.isFile() || info.size > MAX_ENTRY_BYTES) continue;
    const raw = await readFile(file, 'utf8').catch(() => null);
    if (raw === null) continue;
    entries.push({ ...parse(name.slice(0, -3), raw), updatedAtMs: info.mtimeMs });
  }
  return entries;
}

/** Deletes one entry; false when there was none. */
export async function deleteMemory(workspace: string, slug: string): Promise<boolean> {
  await assertPlainDir(workspace);
  const file = join(memoryDir(workspace), `${slug}.md`);
  const info = await lstat(file).catch(() => null);
  if (!info || info.isDirectory()) return false;
  await unlink(file);
  return true;
}
