// Risk classification of one argument vector: high (destructive, privileged, networked), medium (mutating), low.
import { basename } from 'node:path';
import type { CommandRisk } from './types.ts';

/** Privilege, destruction, network transfer, process control, and programs that run other programs. */
const HIGH = new Set(
  (
    'sudo su doas pkexec chmod chown chgrp chattr curl wget dd shred shutdown reboot halt poweroff ' +
    'init kill killall pkill mount umount fdisk parted mkswap swapon swapoff iptables nft nc ncat ' +
    'netcat telnet ssh scp sftp rsync ftp systemctl service launchctl useradd userdel usermod ' +
    'groupadd passwd crontab at sh bash zsh dash ksh fish csh eval exec xargs env nohup setsid ' +
    'timeout nice watch npx pnpx bunx'
  ).split(' '),
);

const MEDIUM = new Set(
  'mv cp rm rmdir mkdir touch ln tee truncate patch install unzip tar gzip gunzip zip make docker kubectl'.split(
    ' ',
  ),
);

/** Interpreters: running a script file is medium, evaluating inline code (-c, -e, ...) is high. */
const INTERPRETERS = new Set('python python3 node ruby perl php deno bun'.split(' '));

const GIT_MEDIUM = new Set(
  (
    'push commit reset rebase merge checkout clean add rm mv tag stash cherry-pick revert pull clone ' +
    'apply am restore switch init fetch gc submodule worktree notes update-ref filter-branch remote'
  ).split(' '),
);

const PKG_MEDIUM = new Set(
  (
    'install i ci add uninstall remove rm un r update up upgrade publish link unlink exec x run ' +
    'run-script start test t init create dlx prune dedupe rebuild build new fix clean uninstall-all'
  ).split(' '),
);

const INTERPRETER_EVAL = new Set(['-c', '-e', '--eval', '-p', '--print', '-r']);

const firstOperand = (args: readonly string[]) => args.find((a) => !a.startsWith('-'));

const hasShortFlag = (args: readonly string[], letters: string) =>
  args.some((a) => /^-[A-Za-z]+$/.test(a) && [...letters].some((l) => a.includes(l)));

function gitRisk(args: readonly string[]): CommandRisk {
  // Config injection can install pagers, editors or hooks that run arbitrary programs.
  if (
    args.some(
      (a) =>
        a === '-c' ||
        a.startsWith('--config') ||
        a.startsWith('--exec-path') ||
        a.startsWith('--upload-pack'),
    )
  ) {
    return 'high';
  }
  const sub = firstOperand(args);
  if (sub === undefined) return 'low';
  const rest = args.slice(args.indexOf(sub) + 1);
  if (sub === 'push' && rest.some((a) => a === '-f' || a === '--force' || a.startsWith('+'))) return 'high';
  if (sub === 'config') {
    return rest.some((a) => ['--get', '--get-all', '--get-regexp', '--list', '-l'].includes(a))
      ? 'low'
      : 'medium';
  }
  if (sub === 'branch') {
    return rest.some((a) => /^-[dDmMcC]$/.test(a) || ['--delete', '--move', '--copy', '--force'].includes(a))
      ? 'medium'
      : 'low';
  }
  return GIT_MEDIUM.has(sub) ? 'medium' : 'low';
}

export function classifyArgv(argv: readonly string[]): CommandRisk {
  const program = basename(argv[0] ?? '').toLowerCase();
  const args = argv.slice(1);
  if (HIGH.has(program) || program.startsWith('mkfs')) return 'high';
  switch (program) {
    case 'rm':
      return hasShortFlag(args, 'rR') || args.includes('--recursive') ? 'high' : 'medium';
    case 'git':
      return gitRisk(args);
    case 'find':
      if (args.some((a) => ['-exec', '-execdir', '-ok', '-okdir', '-delete'].includes(a))) return 'high';
      return 'low';
    case 'sed':
      return args.some((a) => a.startsWith('-i') || a.startsWith('--in-place')) ? 'medium' : 'low';
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'cargo': {
      const sub = firstOperand(args);
      return sub !== undefined && PKG_MEDIUM.has(sub) ? 'medium' : 'low';
    }
  }
  if (INTERPRETERS.has(program) || /^python3\.\d+$/.test(program)) {
    return args.some((a) => INTERPRETER_EVAL.has(a)) ? 'high' : 'medium';
  }
  return MEDIUM.has(program) ? 'medium' : 'low';
}
