// The host's system files a sandboxed command sees (config.md §10.2): programs, libraries and a few /etc entries.
import { lstatSync, readlinkSync } from 'node:fs';

/** Top-level system directories programs run from; on merged-/usr hosts all but /usr are symlinks into it. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];

/**
 * The parts of /etc a program needs to start (loader cache, Debian's alternatives), to name users and hosts,
 * and to check TLS certificates. The rest of /etc (host config, credentials, baton's own config) is not there.
 */
export const ETC_ENTRIES = [
  'alternatives',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'resolv.conf',
  'gai.conf',
  'services',
  'protocols',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'localtime',
  'timezone',
  'mime.types',
  'magic',
  'os-release',
  'debian_version',
];

export type SystemEntry = { kind: 'dir' } | { kind: 'link'; target: string } | null;

/** What a top-level system path is on the host, without following a symlink. */
export function inspectSystemEntry(p: string): SystemEntry {
  try {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return { kind: 'link', target: readlinkSync(p) };
    return st.isDirectory() ? { kind: 'dir' } : null;
  } catch {
    return null;
  }
}

/** Read-only binds of the system directories (symlinks recreated as symlinks) and the needed parts of /etc. */
export function systemMounts(inspect: (p: string) => SystemEntry): string[] {
  const out: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const entry = inspect(dir);
    if (entry?.kind === 'dir') out.push('--ro-bind', dir, dir);
    else if (entry?.kind === 'link') out.push('--symlink', entry.target, dir);
  }
  for (const name of ETC_ENTRIES) out.push('--ro-bind-try', `/etc/${name}`, `/etc/${name}`);
  return out;
}
