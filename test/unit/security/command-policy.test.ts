// Shell command policy: quote-aware parsing, metacharacter refusal, allowlist, risk, approval, path arguments.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCommand, classifyCommand } from '../../../src/security/command-policy.ts';
import { splitCommand } from '../../../src/security/shell-lexer.ts';
import { buildPolicy } from '../../helpers/policy.ts';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-cmd-')));
const ws = join(dir, 'ws');
mkdirSync(ws, { recursive: true });
symlinkSync('/etc', join(ws, 'etc-link'));
mkdirSync(join(ws, '.git'));
symlinkSync(join(ws, '.git', 'config'), join(ws, 'cfg-link'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const policy = buildPolicy({
  workspaceDir: ws,
  forbiddenPaths: ['/etc', '~/.ssh'],
  allowedCommands: [
    'git',
    'ls',
    'cat',
    'echo',
    'rm',
    'touch',
    'npm',
    'curl',
    'sudo',
    'find',
    '/opt/tool/bin/run',
  ],
});

describe('splitCommand', () => {
  it.each([
    ['git status', ['git', 'status']],
    ['  ls   -la  ', ['ls', '-la']],
    [`git commit -m "fix: a; b && c | d"`, ['git', 'commit', '-m', 'fix: a; b && c | d']],
    [`echo 'it''s' "say \\"hi\\"" a\\ b`, ['echo', 'its', 'say "hi"', 'a b']],
    [`echo '$(whoami)' '\`id\`' ''`, ['echo', '$(whoami)', '`id`', '']],
    ['echo a#b $ 100%', ['echo', 'a#b', '$', '100%']],
  ])('%s', (line, argv) => {
    expect(splitCommand(line)).toEqual({ ok: true, argv });
  });

  it.each([
    ['ls; rm -rf /', "';'"],
    ['ls && whoami', "'&&'"],
    ['ls || whoami', "'||'"],
    ['ls | grep x', "'|'"],
    ['sleep 100 &', "'&'"],
    ['echo hi > out.txt', "a redirection ('>')"],
    ['cat < in.txt', "a redirection ('<')"],
    ['ls\nwhoami', 'a newline'],
    ['echo `id`', 'a backtick command substitution'],
    ['echo $(id)', "'$(' command substitution"],
    ['echo "$(id)"', "'$(' command substitution"],
    ['(ls)', "a subshell parenthesis ('(')"],
    ['ls # comment', "a comment ('#')"],
  ])('rejects %j (%s) with a clear error', (line, what) => {
    const r = splitCommand(line);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toContain(`Command contains ${what}, which needs a shell`);
      expect(r.error).toContain('commands run without a shell');
    }
  });

  it('rejects variable expansion, unterminated quotes and a trailing backslash', () => {
    expect(splitCommand('echo $HOME')).toMatchObject({
      ok: false,
      error: expect.stringContaining('variable expansion'),
    });
    expect(splitCommand(`echo "\${X}"`)).toMatchObject({
      ok: false,
      error: expect.stringContaining('variable expansion'),
    });
    expect(splitCommand('echo "abc')).toEqual({ ok: false, error: 'Command has an unterminated quote' });
    expect(splitCommand('echo abc\\')).toEqual({ ok: false, error: 'Command ends with a lone backslash' });
  });
});

describe('checkCommand', () => {
  it('accepts an allowed low-risk command without approval', () => {
    expect(checkCommand(policy, 'git status')).toEqual({
      ok: true,
      argv: ['git', 'status'],
      risk: 'low',
      writes: false,
      needsApproval: false,
    });
  });

  it('refuses a program that is not on allowed_commands', () => {
    expect(checkCommand(policy, 'python3 -V')).toEqual({
      ok: false,
      error: "Command 'python3' is not in the allowed_commands list of this agent's risk profile",
    });
    expect(checkCommand(policy, 'FOO=1 ls')).toMatchObject({ ok: false });
  });

  it('matches programs by the command-equivalence rule', () => {
    expect(checkCommand(policy, 'LS')).toMatchObject({ ok: true });
    expect(checkCommand(policy, '/bin/ls')).toMatchObject({ ok: true });
    expect(checkCommand(policy, '/opt/tool/bin/run')).toMatchObject({ ok: true });
    expect(checkCommand(policy, 'run')).toMatchObject({ ok: false });
    expect(checkCommand(policy, '/opt/tool/bin/Run')).toMatchObject({ ok: false });
    // A program inside the workspace is something the model could have written: basename is not enough.
    expect(checkCommand(policy, `${ws}/git status`)).toMatchObject({ ok: false });
    expect(checkCommand(policy, './git status')).toMatchObject({ ok: false });
  });

  it('admits every program with a "*" entry, still under the risk rules', () => {
    const star = { ...policy, allowedCommands: ['*'] };
    expect(checkCommand(star, 'uname -a')).toMatchObject({ ok: true, risk: 'low' });
    expect(checkCommand(star, 'rm -rf build')).toMatchObject({ ok: false });
  });

  it('blocks high-risk commands when block_high_risk_commands is on', () => {
    for (const line of [
      'rm -rf build',
      'rm -r build',
      'sudo ls',
      'curl https://example.com',
      'find . -delete',
    ]) {
      const r = checkCommand(policy, line);
      expect(r.ok, line).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/is high-risk and blocked by this agent's risk profile/);
    }
  });

  it('asks for unblocked high-risk commands in supervised mode', () => {
    const r = checkCommand({ ...policy, blockHighRiskCommands: false }, 'rm -rf build');
    expect(r).toMatchObject({ ok: true, risk: 'high', needsApproval: true });
  });

  it('flags medium-risk commands for approval only when the profile requires it and the level is supervised', () => {
    expect(checkCommand(policy, 'touch a.txt')).toMatchObject({
      ok: true,
      risk: 'medium',
      needsApproval: true,
    });
    expect(checkCommand(policy, 'git push origin main')).toMatchObject({
      risk: 'medium',
      needsApproval: true,
    });
    expect(checkCommand(policy, 'npm install')).toMatchObject({ risk: 'medium', needsApproval: true });
    // A medium command that does not write follows require_approval_for_medium_risk alone.
    expect(
      checkCommand({ ...policy, requireApprovalForMediumRisk: false }, 'git -c color.ui=always log'),
    ).toMatchObject({ risk: 'medium', writes: false, needsApproval: false });
    expect(checkCommand({ ...policy, autonomy: 'full', workspaceOnly: false }, 'touch a.txt')).toMatchObject({
      needsApproval: false,
    });
  });

  it('refuses arguments naming forbidden paths or leaving the workspace', () => {
    expect(checkCommand(policy, 'cat /etc/passwd')).toEqual({
      ok: false,
      error: "Command argument '/etc/passwd' names a forbidden path",
    });
    expect(checkCommand(policy, 'cat --file=/etc/passwd')).toMatchObject({ ok: false });
    expect(checkCommand(policy, 'cat ../../x')).toEqual({
      ok: false,
      error:
        "Command argument '../../x' points outside the workspace and allowed roots (workspace_only is on)",
    });
    expect(checkCommand(policy, 'cat etc-link/hostname')).toMatchObject({ ok: false });
    expect(checkCommand(policy, 'git clone https://example.com/repo.git')).toMatchObject({ ok: true });
    expect(checkCommand(policy, 'cat sub/../notes.txt')).toMatchObject({ ok: true });
  });

  it('allows outside paths with workspace_only off, but never forbidden ones', () => {
    const open = { ...policy, workspaceOnly: false, forbiddenPaths: ['/etc'] };
    expect(checkCommand(open, `ls ${dir}`)).toMatchObject({ ok: true });
    expect(checkCommand(open, 'cat /etc/hosts')).toMatchObject({ ok: false });
  });

  it('rates a command that may write an execution-config file high (Security 2, item 1)', () => {
    const tools = { ...policy, allowedCommands: ['*'], blockHighRiskCommands: false };
    for (const line of [
      'cp evil.txt .git/config',
      'mv hook .git/hooks/post-index-change',
      'mv elsewhere .git',
      'touch .gitattributes',
      'tee sub/.npmrc',
      'sed -i s/a/b/ .git/config',
      'cp -t .cargo x/config.toml',
      'cp evil/.npmrc .',
      'cp -r evil/.git sub',
      'ln -s elsewhere .git',
      'touch cfg-link',
    ]) {
      expect(checkCommand(tools, line), line).toMatchObject({ ok: true, risk: 'high', needsApproval: true });
    }
    // Reading those files, or writing elsewhere, keeps its usual risk.
    expect(checkCommand(tools, 'cat .git/config')).toMatchObject({ risk: 'low' });
    expect(checkCommand(tools, 'cp .git/config backup.txt')).toMatchObject({ risk: 'medium' });
    expect(checkCommand(tools, 'git status')).toMatchObject({ risk: 'low' });
    expect(checkCommand(policy, 'touch .gitattributes')).toEqual({
      ok: false,
      error:
        "Command 'touch' is high-risk and blocked by this agent's risk profile (block_high_risk_commands)",
    });
  });

  it('refuses recursive readers that follow symbolic links while workspace_only is on (Security 2, item 10)', () => {
    const tools = { ...policy, allowedCommands: ['*'], blockHighRiskCommands: false };
    for (const [line, option] of [
      ['grep -R secret .', '-R'],
      ['grep -rnR secret .', '-R'],
      ['grep --dereference-recursive secret .', '--dereference-recursive'],
      ['egrep -R x .', '-R'],
      ['ls -RL .', '-L'],
      ['ls --recursive --dereference', '--dereference'],
      ['du -L .', '-L'],
      ['find -L . -name x', '-L'],
      ['find . -follow -name x', '-follow'],
      ['cp -rL src dst', '-L'],
      ['cp -a --dereference src dst', '--dereference'],
      ['diff -r a b', '-r'],
      ['tar -chf out.tar dir', '-h'],
      ['tar chf out.tar dir', 'chf'],
      ['zip -r out.zip dir', '-r'],
    ]) {
      expect(checkCommand(tools, line!), line).toEqual({
        ok: false,
        error: `Command '${line!.split(' ')[0]}' with '${option}' follows symbolic links while it reads recursively, which can leave the workspace (workspace_only is on); read recursively without following links (for example grep -r instead of grep -R)`,
      });
    }
    // The forms that do not follow links, and option values that only look like such a letter, pass.
    for (const line of [
      'grep -r secret .',
      'grep -e R -r .',
      'grep -eR x a.txt',
      'ls -R .',
      'ls -L a',
      'du -sh .',
      'find . -name x',
      'cp -r src dst',
      'diff -r --no-dereference a b',
      'tar -cf out.tar dir',
      'zip -ry out.zip dir',
    ]) {
      expect(checkCommand(tools, line).ok, line).toBe(true);
    }
    // With workspace_only off there is no confinement to leave; the sandbox bounds what the links reach.
    expect(checkCommand({ ...tools, workspaceOnly: false }, 'grep -R secret .').ok).toBe(true);
  });

  it('never throws on bad input', () => {
    for (const bad of [undefined, null, 42, {}, '', '   ', '""']) {
      expect(checkCommand(policy, bad).ok).toBe(false);
    }
  });
});

describe('classifyCommand', () => {
  it.each([
    ['ls -la', 'low'],
    ['git status', 'low'],
    ['git log --oneline', 'low'],
    ['git branch', 'low'],
    ['git branch -D old', 'medium'],
    ['git commit -m x', 'medium'],
    ['git push --force', 'high'],
    ['git -c core.pager=sh log', 'high'],
    ['npm test', 'medium'],
    ['npm ls', 'low'],
    ['cp a b', 'medium'],
    ['mv a b', 'medium'],
    ['mkdir x', 'medium'],
    ['rm a.txt', 'medium'],
    ['rm -Rf x', 'high'],
    ['chmod 777 x', 'high'],
    ['chown me x', 'high'],
    ['wget http://x', 'high'],
    ['dd if=/dev/zero of=x', 'high'],
    ['mkfs.ext4 /dev/sda', 'high'],
    ['shutdown now', 'high'],
    ['kill 1', 'high'],
    ['python3 script.py', 'medium'],
    ['python3 -c "print(1)"', 'high'],
    ['find . -name x', 'low'],
    ['find . -exec rm {} ;', 'high'],
    ['ls | wc', 'high'],
  ])('%s → %s', (line, risk) => {
    expect(classifyCommand(line)).toBe(risk);
  });
});
