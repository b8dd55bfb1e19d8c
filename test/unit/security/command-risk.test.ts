// Shell risk by allowlist (issue 8 item 2): every command of the issue under the default supervised profile,
// low only for known read-only forms, unknown is medium, writes count as file_write, attached path values.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALLOWED_COMMANDS } from '../../../src/config/defaults.ts';
import { checkCommand, classifyCommand } from '../../../src/security/command-policy.ts';
import { buildPolicy } from '../../helpers/policy.ts';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-risk-')));
const ws = join(dir, 'ws');
const ro = join(dir, 'ro');
mkdirSync(ws, { recursive: true });
mkdirSync(ro, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The default supervised profile: default allowed_commands, block_high_risk_commands and medium approval on. */
const policy = buildPolicy({ workspaceDir: ws, allowedRootsReadOnly: [ro] });
const unblocked = { ...policy, blockHighRiskCommands: false };
const withPerl = { ...policy, allowedCommands: [...DEFAULT_ALLOWED_COMMANDS, 'perl'] };

/**
 * The README's security table, row by row: the command, its class before issue 8 (every one ran with no
 * approval except the high ones), its class now, and whether it writes.
 */
const ISSUE_ROWS: [command: string, before: string, after: 'medium' | 'high', writes: boolean][] = [
  ['git -C . push --force', 'low', 'high', true],
  ['git -C . reset --hard', 'low', 'medium', true],
  ['git -C . clean -fdx', 'low', 'high', true],
  ["git -C . config core.fsmonitor 'touch pwned'", 'low', 'high', true],
  ['git grep --no-index --open-files-in-pager=touch x', 'low', 'high', true],
  ['npm explore lodash -- touch pwned', 'low', 'high', true],
  ['npm version patch', 'low', 'medium', true],
  ['npm pack', 'low', 'medium', true],
  ['npm stop', 'low', 'medium', true],
  ['cargo check', 'low', 'medium', true],
  ['cargo b', 'low', 'medium', true],
  ['find . -fprint out.txt', 'low', 'medium', true],
  ['sort -o out.txt in.txt', 'low', 'medium', true],
  ['uniq in.txt out.txt', 'low', 'medium', true],
  ["node -e 'require(`fs`)'", 'high', 'high', true],
  ['node -pe 1+1', 'medium', 'high', true],
  ['perl -E "say 1"', 'medium', 'high', true],
  ['python3 -c "print(1)"', 'high', 'high', true],
];

describe('the commands of issue 8 under the default supervised profile', () => {
  it.each(ISSUE_ROWS)('%s: %s → %s', (command, _before, after, writes) => {
    const p = command.startsWith('perl') ? withPerl : policy;
    expect(classifyCommand(command)).toBe(after);
    const check = checkCommand(p, command);
    if (after === 'high') {
      // Blocked outright by block_high_risk_commands; with it off, an operator must approve.
      expect(check).toMatchObject({ ok: false, error: expect.stringContaining('is high-risk and blocked') });
      expect(checkCommand({ ...p, blockHighRiskCommands: false }, command)).toMatchObject({
        ok: true,
        risk: 'high',
        writes,
        needsApproval: true,
      });
    } else {
      expect(check).toMatchObject({ ok: true, risk: 'medium', writes, needsApproval: true });
      // A write asks like file_write even when medium-risk approval is off.
      expect(checkCommand({ ...p, requireApprovalForMediumRisk: false }, command)).toMatchObject({
        needsApproval: true,
      });
    }
  });

  it('git status stays low and runs without approval', () => {
    expect(checkCommand(policy, 'git status')).toMatchObject({ ok: true, risk: 'low', needsApproval: false });
    expect(checkCommand(policy, 'git -C . status')).toMatchObject({ risk: 'low', needsApproval: false });
  });
});

describe('classification by allowlist', () => {
  it.each([
    // known read-only programs, subcommands and options
    'ls -la',
    'cat a.txt',
    'grep -rn foo .',
    'head -n 5 a',
    'wc -l a',
    'date -u',
    'diff -u a b',
    'find . -name "*.ts" -type f -maxdepth 2 -print',
    'sort -n -k2 in.txt',
    'uniq -c in.txt',
    'git status --porcelain',
    'git log --oneline -5 --graph',
    'git diff --stat HEAD~1',
    'git show --name-only HEAD',
    'git branch',
    'git branch -a --contains HEAD',
    'git rev-parse --show-toplevel',
    'git ls-files -z',
    'git grep -n -e -O foo',
    'git blame -L 1,5 a.ts',
    'git --no-pager log',
    'git -P --literal-pathspecs log',
    'git --git-dir=.git --work-tree=. status',
    'git -Csub status',
    'git config --get user.name',
    'git config core.fsmonitor',
    'git stash list',
    'git tag -l',
    'git remote -v',
    'git --version',
    'git --exec-path',
    'npm ls --depth=0',
    'npm view lodash version',
    'npm outdated --json',
    'npm help install',
    'npm config get registry',
    'npm --version',
    'cargo metadata --format-version 1 --no-deps',
    'cargo tree -e normal',
    'cargo --version',
    'python3 --version',
    'node -v',
    'sed --sandbox -n 1p a.txt',
  ])('%s → low', (line) => {
    expect(classifyCommand(line)).toBe('low');
  });

  it.each([
    // unknown programs, subcommands and options
    ['awk "{print}" a', 'medium'],
    ['mystery-tool --flag', 'medium'],
    ['git frobnicate', 'medium'],
    ['git log --output=out.txt', 'medium'],
    // options that run the drivers a repository's config names
    ['git log -p --textconv', 'medium'],
    ['git cat-file --textconv HEAD:a.txt', 'medium'],
    ['git cat-file --filters HEAD:a.txt', 'medium'],
    ['git grep --textconv foo', 'medium'],
    ['git status --bogus', 'medium'],
    ['git --bogus status', 'medium'],
    ['npm frobnicate', 'medium'],
    ['npm ls --prefix=/x', 'medium'],
    ['npm -w ls install', 'medium'],
    ['cargo frobnicate', 'medium'],
    ['cargo +nightly metadata', 'medium'],
    ['find . -newer a -fancy', 'medium'],
    ['sort --bogus a', 'medium'],
    ['sed -n 1p a', 'medium'],
    // writes and programs that run code
    ['git commit -m "x"', 'medium'],
    ['git branch new-branch', 'medium'],
    ['git branch -D old', 'medium'],
    ['git tag v1', 'medium'],
    ['git stash', 'medium'],
    ['git config user.name me', 'medium'],
    ['git -c color.ui=always log', 'medium'],
    ['git -p log', 'medium'],
    ['git push origin main', 'medium'],
    ['npm run build', 'medium'],
    ['npm test', 'medium'],
    ['npm start', 'medium'],
    ['npm install', 'medium'],
    ['cargo build', 'medium'],
    ['cargo test', 'medium'],
    ['cargo run', 'medium'],
    ['find . -fprintf out.txt %p', 'medium'],
    ['find . -fls out.txt', 'medium'],
    ['sort --output=out.txt in.txt', 'medium'],
    ['sort -uoout.txt in.txt', 'medium'],
    ['sed -i s/a/b/ a.txt', 'medium'],
    ['tee out.txt', 'medium'],
    ['cp a b', 'medium'],
    ['python3 script.py', 'medium'],
    ['python3 -m http.server', 'medium'],
    ['node script.js -e', 'medium'],
    ['perl -pie 1 a.txt', 'medium'],
    // programs and code
    ['git -c core.pager=sh log', 'high'],
    ['git -c core.editor=x commit', 'high'],
    ['git --config-env=core.pager=X log', 'high'],
    ['git --exec-path=/tmp log', 'high'],
    ['git -c alias.st=!sh st', 'high'],
    ['git config core.hooksPath hooks', 'high'],
    ['git config core.sshCommand x', 'high'],
    ['git config --global core.pager x', 'high'],
    ['git config alias.x "!touch y"', 'high'],
    ['git config set core.editor vi', 'high'],
    ['git config --edit', 'high'],
    ['git grep -O foo', 'high'],
    ['git grep -nOvim foo', 'high'],
    ['git rebase --exec "make" HEAD~1', 'high'],
    ['git rebase -x make HEAD~1', 'high'],
    ['git ls-remote --upload-pack=x .', 'high'],
    ['git fetch --upload-pack x origin', 'high'],
    ['git push --force-with-lease', 'high'],
    ['git push origin +main', 'high'],
    ['git push origin :main', 'high'],
    ['git submodule foreach make', 'high'],
    ['git bisect run make', 'high'],
    ['git difftool', 'high'],
    ['npm exec cowsay', 'high'],
    ['npm x cowsay', 'high'],
    ['npm run build --script-shell=/bin/sh', 'high'],
    ['cargo --config build.rustc-wrapper=x metadata', 'high'],
    ['find . -exec rm {} ;', 'high'],
    ['find . -delete', 'high'],
    ['sort --compress-program=gzip a', 'high'],
    ['date -s 2020-01-01', 'high'],
    ['python3 -Ic "1"', 'high'],
    ['python3.12 -c 1', 'high'],
    ['node --eval 1', 'high'],
    ['node --print=1', 'high'],
    ['node -p 1', 'high'],
    ['perl -e 1', 'high'],
    ['perl -ne print', 'high'],
    ['perl -lne print', 'high'],
    ['perl -le print', 'high'],
    ['perl -i -e 1', 'high'],
    ['perl -MPOSIX x.pl', 'high'],
    ['ruby -e 1', 'high'],
    ['php -r 1', 'high'],
    ['bun -e 1', 'high'],
    ['deno eval 1', 'high'],
    ['sudo ls', 'high'],
    ['curl https://example.com', 'high'],
  ])('%s → %s', (line, risk) => {
    expect(classifyCommand(line)).toBe(risk);
  });
});

describe('writes are writes for the approval rules, like file_write', () => {
  it('a write asks under supervised unless file_write is auto-approved', () => {
    expect(checkCommand(policy, 'sort -o out.txt in.txt')).toMatchObject({
      writes: true,
      needsApproval: true,
    });
    const fileWriteApproved = { ...policy, autoApprove: [...policy.autoApprove, 'file_write'] };
    expect(checkCommand(fileWriteApproved, 'sort -o out.txt in.txt')).toMatchObject({
      writes: true,
      needsApproval: true,
    });
    expect(
      checkCommand({ ...fileWriteApproved, requireApprovalForMediumRisk: false }, 'sort -o out.txt in.txt'),
    ).toMatchObject({ needsApproval: false });
    // auto_approve = ["shell"] does not waive the command policy (approvals.md §2 rule 4 comes first).
    const shellApproved = { ...policy, autoApprove: ['shell'], requireApprovalForMediumRisk: false };
    expect(checkCommand(shellApproved, 'sort -o out.txt in.txt')).toMatchObject({ needsApproval: true });
  });

  it('at full autonomy a write asks only when always_ask lists file_write', () => {
    const full = { ...policy, autonomy: 'full' as const, workspaceOnly: false };
    expect(checkCommand(full, 'uniq in.txt out.txt')).toMatchObject({ ok: true, needsApproval: false });
    expect(checkCommand({ ...full, alwaysAsk: ['file_write'] }, 'uniq in.txt out.txt')).toMatchObject({
      needsApproval: true,
    });
    expect(checkCommand({ ...full, alwaysAsk: ['file_write'] }, 'uniq in.txt')).toMatchObject({
      needsApproval: false,
    });
  });
});

describe('path checks of attached option values', () => {
  const open = { ...unblocked, allowedCommands: ['*'] };
  it.each([
    ['git -C.. status', "'..' points outside"],
    ['git -C/etc status', "'/etc' names a forbidden path"],
    ['git --git-dir=/etc/x status', "'/etc/x' names a forbidden path"],
    ['git --work-tree=../other status', "'../other' points outside"],
    ['sort -o/tmp/out.txt in.txt', "'/tmp/out.txt' points outside"],
    ['sort -uo/tmp/out.txt in.txt', "'/tmp/out.txt' points outside"],
    ['tar -xzf/tmp/a.tar', "'/tmp/a.tar' points outside"],
    ['find . -fprint /tmp/out.txt', "'/tmp/out.txt' points outside"],
    ['tar --directory=.. -xf a.tar', "'..' points outside"],
    ['cat -x~/.ssh/id_rsa', "'~/.ssh/id_rsa' names a forbidden path"],
  ])('%s is refused', (line, message) => {
    const r = checkCommand(open, line);
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.error).toContain(message);
  });

  it('accepts attached values inside the workspace', () => {
    mkdirSync(join(ws, 'sub'), { recursive: true });
    expect(checkCommand(policy, 'git -Csub status')).toMatchObject({ ok: true, risk: 'low' });
    expect(checkCommand(policy, 'sort -ok.txt in.txt')).toMatchObject({ ok: true, writes: true });
  });
});

describe('read-only roots', () => {
  it('allows reading from a read-only root', () => {
    expect(checkCommand(policy, `cat ${ro}/a.txt`)).toMatchObject({ ok: true, risk: 'low' });
    expect(checkCommand(policy, `sort ${ro}/a.txt`)).toMatchObject({ ok: true, risk: 'low' });
    expect(checkCommand(policy, `find ${ro} -name x`)).toMatchObject({ ok: true, risk: 'low' });
    expect(checkCommand(policy, `git -C ${ro} status`)).toMatchObject({ ok: true, risk: 'low' });
    expect(checkCommand(policy, `sort -o out.txt ${ro}/a.txt`)).toMatchObject({ ok: true, writes: true });
  });

  it.each([
    `sort -o ${ro}/out.txt in.txt`,
    `sort -o${ro}/out.txt in.txt`,
    `sort --output=${ro}/out.txt in.txt`,
    `uniq in.txt ${ro}/out.txt`,
    `find . -fprint ${ro}/out.txt`,
    `git -C ${ro} commit -m x`,
    `git -C ${ro} reset --hard`,
    `python3 script.py ${ro}/data`,
  ])('refuses a write into a read-only root: %s', (line) => {
    const r = checkCommand(policy, line);
    expect(r).toMatchObject({ ok: false, error: expect.stringContaining('is in a read-only root') });
  });

  it('a copy reads its sources from a read-only root and writes only its destination', () => {
    const withCp = { ...policy, allowedCommands: ['cp'] };
    expect(checkCommand(withCp, `cp ${ro}/a.txt b.txt`)).toMatchObject({ ok: true, writes: true });
    expect(checkCommand(withCp, `cp a.txt ${ro}/b.txt`)).toMatchObject({ ok: false });
  });
});
