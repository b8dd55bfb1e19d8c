// The path guard: workspace and roots, traversal, symlink escapes, forbidden paths, read-/write-only roots.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPath } from '../../../src/security/path-guard.ts';
import { buildPolicy } from '../../helpers/policy.ts';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-guard-')));
const ws = join(dir, 'ws');
const outside = join(dir, 'outside');
const ro = join(dir, 'ro');
const wo = join(dir, 'wo');
for (const d of [ws, outside, ro, wo, join(ws, 'secrets')]) mkdirSync(d, { recursive: true });
writeFileSync(join(outside, 'secret.txt'), 'top secret');
symlinkSync(join(outside, 'secret.txt'), join(ws, 'link-file'));
symlinkSync(outside, join(ws, 'link-dir'));
symlinkSync(join(ws, 'notes.txt'), join(ws, 'inner-link'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const policy = buildPolicy({
  workspaceDir: ws,
  allowedRootsReadOnly: [ro],
  allowedRootsWriteOnly: [wo],
  // Default list: includes /tmp, under which these test directories live.
  forbiddenPaths: ['/etc', '/tmp', '~/.ssh', join(ws, 'secrets'), 'private'],
});

const reason = (raw: unknown, mode: 'read' | 'write' | 'any', p = policy) => {
  const r = checkPath(p, raw, mode);
  return r.ok ? 'ok' : r.reason;
};

describe('checkPath', () => {
  it('resolves relative paths inside the workspace', () => {
    const r = checkPath(policy, 'a/b.txt', 'write');
    expect(r).toMatchObject({ ok: true, path: join(ws, 'a/b.txt') });
  });

  it('refuses traversal and absolute paths outside the roots', () => {
    expect(reason('../../etc/passwd', 'read')).toBe('forbidden');
    const p = { ...policy, forbiddenPaths: [] };
    expect(reason('../outside/secret.txt', 'read', p)).toBe('outside');
    expect(reason(join(outside, 'secret.txt'), 'read', p)).toBe('outside');
  });

  it('refuses symlinks that lead outside, for files and directories', () => {
    const p = { ...policy, forbiddenPaths: ['/etc'] };
    expect(reason('link-file', 'read', p)).toBe('symlink_escape');
    expect(reason('link-dir/new.txt', 'write', p)).toBe('symlink_escape');
    expect(reason('inner-link', 'read', p)).toBe('ok');
    // With /tmp forbidden the escaped target is refused as forbidden first.
    expect(reason('link-file', 'read')).toBe('forbidden');
  });

  it('refuses forbidden paths, including entries inside the workspace and relative ones', () => {
    expect(reason('/etc/passwd', 'read')).toBe('forbidden');
    expect(reason('secrets/key.pem', 'read')).toBe('forbidden');
    expect(reason('private/x', 'write')).toBe('forbidden');
    expect(reason('~/.ssh/id_rsa', 'read')).toBe('forbidden');
  });

  it('lets a more specific grant win over a broad forbidden prefix (/tmp above the workspace)', () => {
    expect(reason('notes.txt', 'read')).toBe('ok');
    expect(reason(join(ro, 'doc.md'), 'read')).toBe('ok');
  });

  it('keeps forbidden paths when workspace_only is off, and allows the rest', () => {
    const open = { ...policy, workspaceOnly: false, forbiddenPaths: ['/etc'] };
    expect(reason(join(outside, 'secret.txt'), 'read', open)).toBe('ok');
    expect(reason('link-file', 'read', open)).toBe('ok');
    expect(reason('/etc/shadow', 'read', open)).toBe('forbidden');
    expect(reason('../../../../../../etc/hosts', 'read', open)).toBe('forbidden');
    expect(reason(join(outside, 'secret.txt'), 'read', { ...open, forbiddenPaths: ['/tmp'] })).toBe(
      'forbidden',
    );
  });

  it('honours read-only and write-only roots', () => {
    expect(reason(join(ro, 'doc.md'), 'write')).toBe('read_only_root');
    expect(reason(join(wo, 'drop.md'), 'read')).toBe('write_only_root');
    expect(reason(join(wo, 'drop.md'), 'write')).toBe('ok');
    const open = { ...policy, workspaceOnly: false };
    expect(reason(join(ro, 'doc.md'), 'write', open)).toBe('read_only_root');
  });

  it('rejects empty, non-string and NUL-containing paths', () => {
    expect(reason('', 'read')).toBe('invalid');
    expect(reason('   ', 'read')).toBe('invalid');
    expect(reason(42, 'read')).toBe('invalid');
    expect(reason(undefined, 'read')).toBe('invalid');
    expect(reason('a\0b', 'read')).toBe('invalid');
  });

  it('compares roots by segments: a sibling with a longer name is outside', () => {
    mkdirSync(`${ws}2`, { recursive: true });
    expect(reason(`${ws}2/x`, 'read', { ...policy, forbiddenPaths: [] })).toBe('outside');
  });
});
