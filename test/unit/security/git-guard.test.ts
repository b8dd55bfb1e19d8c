// The git guard's argv and ceiling: driver-off options after the subcommand, discovery stopped above each root.
import { describe, expect, it } from 'vitest';
import { ceilingDirectories, hardenGitArgv } from '../../../src/security/git-guard.ts';

describe('hardenGitArgv', () => {
  it.each([
    [
      ['git', 'log', '-p'],
      ['git', 'log', '--no-ext-diff', '--no-textconv', '-p'],
    ],
    [
      ['git', '-C', 'sub', '--no-pager', 'diff', 'HEAD'],
      ['git', '-C', 'sub', '--no-pager', 'diff', '--no-ext-diff', '--no-textconv', 'HEAD'],
    ],
    [
      ['/usr/bin/git', 'blame', 'a.ts'],
      ['/usr/bin/git', 'blame', '--no-textconv', 'a.ts'],
    ],
    [
      ['git', 'status'],
      ['git', 'status'],
    ],
    [['git'], ['git']],
    [
      ['ls', 'log'],
      ['ls', 'log'],
    ],
  ])('%j → %j', (argv, expected) => {
    expect(hardenGitArgv(argv)).toEqual(expected);
  });
});

describe('ceilingDirectories', () => {
  it('is the parent of each root, except a parent inside another root', () => {
    expect(
      ceilingDirectories([
        '/nonexistent/data/workspaces/a',
        '/nonexistent/shared/docs',
        '/nonexistent/data/workspaces/a/sub',
      ]),
    ).toEqual(['/nonexistent/data/workspaces', '/nonexistent/shared']);
  });
});
