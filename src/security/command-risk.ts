// Risk classification of one argument vector by allowlist: low only for programs, subcommands and options
// known to be read-only; anything unknown is at least medium and counts as a write.
import { basename } from 'node:path';
import { type CommandClass, HIGH, READS, UNKNOWN, words, writesTo } from './risk/command-class.ts';
import {
  classifyCopy,
  classifyDate,
  classifyFind,
  classifyRm,
  classifySed,
  classifySort,
  classifyUniq,
} from './risk/file-tools.ts';
import { classifyGit } from './risk/git.ts';
import { classifyDeno, classifyInterpreter, interpreterOf } from './risk/interpreters.ts';
import { classifyCargo, classifyNpm } from './risk/packages.ts';
import type { CommandRisk } from './types.ts';

export type { CommandClass, WriteTargets } from './risk/command-class.ts';

/** Privilege, destruction, network transfer, process control, and programs that run other programs. */
const HIGH_PROGRAMS = words(
  'sudo su doas pkexec chmod chown chgrp chattr curl wget dd shred shutdown reboot halt poweroff ' +
    'init kill killall pkill mount umount fdisk parted mkswap swapon swapoff iptables nft nc ncat ' +
    'netcat telnet ssh scp sftp rsync ftp systemctl service launchctl useradd userdel usermod ' +
    'groupadd passwd crontab at sh bash zsh dash ksh fish csh eval exec xargs env nohup setsid ' +
    'timeout nice watch npx pnpx bunx',
);

/**
 * Programs none of whose options writes a file or runs another program (GNU coreutils, grep, diff), so every
 * option of theirs is known to be read-only.
 */
const READ_ONLY_PROGRAMS = words(
  'ls cat echo pwd head tail wc diff grep egrep fgrep whoami id uname basename dirname realpath readlink ' +
    'true false printf nl cut tr rev tac cmp comm seq stat du df md5sum sha1sum sha256sum sha512sum cksum',
);

/** Programs whose job is to change files; any path argument may be a target. */
const WRITERS = words(
  'mv rmdir mkdir touch tee truncate patch install unzip tar gzip gunzip zip make docker kubectl',
);

type Classifier = (args: readonly string[]) => CommandClass;

const CLASSIFIERS: ReadonlyMap<string, Classifier> = new Map([
  ['git', classifyGit],
  ['npm', classifyNpm],
  ['cargo', classifyCargo],
  ['find', classifyFind],
  ['sort', classifySort],
  ['uniq', classifyUniq],
  ['sed', classifySed],
  ['cp', classifyCopy],
  ['ln', classifyCopy],
  ['date', classifyDate],
  ['rm', classifyRm],
  ['deno', classifyDeno],
  // pnpm and yarn have their own option sets; only their version query is known to be read-only.
  ['pnpm', (args) => (isVersionQuery(args) ? READS : UNKNOWN)],
  ['yarn', (args) => (isVersionQuery(args) ? READS : UNKNOWN)],
]);

const isVersionQuery = (args: readonly string[]) =>
  args.length === 1 && ['-v', '--version'].includes(args[0]!);

/** Risk, write flag and write targets of one argument vector. */
export function assessArgv(argv: readonly string[]): CommandClass {
  const program = basename(argv[0] ?? '').toLowerCase();
  const args = argv.slice(1);
  if (HIGH_PROGRAMS.has(program) || program.startsWith('mkfs')) return HIGH;
  const classifier = CLASSIFIERS.get(program);
  if (classifier) return classifier(args);
  const interpreter = interpreterOf(program);
  if (interpreter) return classifyInterpreter(interpreter, args);
  if (READ_ONLY_PROGRAMS.has(program)) return READS;
  if (WRITERS.has(program)) return writesTo('all');
  return UNKNOWN;
}

export function classifyArgv(argv: readonly string[]): CommandRisk {
  return assessArgv(argv).risk;
}
