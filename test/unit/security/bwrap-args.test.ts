// The bwrap argument vector: mount order (outermost first, hiding wins at the same path), what is skipped,
// network, read-only level; and how a risk profile's keys become the policy's sandbox settings.
import { describe, expect, it } from 'vitest';
import { buildSecurityPolicy } from '../../../src/security/policy.ts';
import { bwrapArgs, type PathKind, type SystemEntry } from '../../../src/security/sandbox/bwrap-args.ts';
import { ETC_ENTRIES } from '../../../src/security/sandbox/system-mounts.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const HOST: Record<string, PathKind> = {
  '/srv/ws': 'dir',
  '/srv/ws/private': 'dir',
  '/srv/ws/.env': 'other',
  '/srv': 'dir',
  '/data': 'dir',
  '/docs': 'dir',
  '/etc': 'dir',
};
const inspect = (p: string): PathKind => HOST[p] ?? null;
/** A merged-/usr host with a real /lib64 and no /lib32 or /libx32. */
const SYSTEM: Record<string, SystemEntry> = {
  '/usr': { kind: 'dir' },
  '/bin': { kind: 'link', target: 'usr/bin' },
  '/sbin': { kind: 'link', target: 'usr/sbin' },
  '/lib': { kind: 'link', target: 'usr/lib' },
  '/lib64': { kind: 'dir' },
};
const inspectSystem = (p: string): SystemEntry => SYSTEM[p] ?? null;
const ETC = ETC_ENTRIES.flatMap((e) => ['--ro-bind-try', `/etc/${e}`, `/etc/${e}`]);
const layout = {
  workspaceDir: '/srv/ws',
  writableRoots: ['/data', '/missing-root'],
  readOnlyRoots: ['/docs'],
  forbiddenPaths: ['/srv/ws/.env', '/srv/ws/private', '/srv', '/etc', '/proc', '/dev/shm', '/', '/nope'],
  readOnly: false,
  allowNetwork: false,
};

describe('bwrapArgs', () => {
  it('binds roots and hides forbidden paths outermost first, then runs the argv without PWD', () => {
    expect(bwrapArgs(layout, ['git', 'status'], inspect, inspectSystem)).toEqual([
      '--die-with-parent',
      '--unshare-all',
      // Only the system directories, never `/` (Security 2, item 4).
      '--ro-bind',
      '/usr',
      '/usr',
      '--symlink',
      'usr/bin',
      '/bin',
      '--symlink',
      'usr/sbin',
      '/sbin',
      '--symlink',
      'usr/lib',
      '/lib',
      '--ro-bind',
      '/lib64',
      '/lib64',
      ...ETC,
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--bind',
      '/data',
      '/data',
      '--ro-bind',
      '/docs',
      '/docs',
      '--tmpfs',
      '/srv',
      '--tmpfs',
      '/etc',
      '--bind',
      '/srv/ws',
      '/srv/ws',
      '--ro-bind',
      '/dev/null',
      '/srv/ws/.env',
      '--tmpfs',
      '/srv/ws/private',
      '--remount-ro',
      '/',
      '--chdir',
      '/srv/ws',
      '--',
      '/usr/bin/env',
      '-u',
      'PWD',
      '--',
      'git',
      'status',
    ]);
  });

  it('shares the network only when allowed, and binds roots read-only at level readonly', () => {
    const args = bwrapArgs(
      { ...layout, allowNetwork: true, readOnly: true, forbiddenPaths: [] },
      ['ls'],
      inspect,
      inspectSystem,
    );
    expect(args.slice(1, 3)).toEqual(['--unshare-all', '--share-net']);
    expect(args.join(' ')).toContain('--ro-bind /srv/ws /srv/ws');
    expect(args).not.toContain('--bind');
  });
});

describe('policy sandbox settings', () => {
  it('maps sandbox_enabled, sandbox_backend (unsupported values → auto) and sandbox_allow', () => {
    const config = configFromToml(`
[risk_profiles.a]
[risk_profiles.b]
sandbox_enabled = true
sandbox_backend = "firejail"
sandbox_allow = ["network"]
[risk_profiles.c]
sandbox_enabled = false
sandbox_backend = "none"

[agents.x]
risk_profile = "a"
[agents.y]
risk_profile = "b"
[agents.z]
risk_profile = "c"
`);
    expect(buildSecurityPolicy(config, 'x').sandbox).toEqual({
      enabled: undefined,
      backend: 'auto',
      allowNetwork: false,
    });
    expect(buildSecurityPolicy(config, 'y').sandbox).toEqual({
      enabled: true,
      backend: 'auto',
      allowNetwork: true,
    });
    expect(buildSecurityPolicy(config, 'z').sandbox).toEqual({
      enabled: false,
      backend: 'none',
      allowNetwork: false,
    });
  });
});
