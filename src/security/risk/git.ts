// git: global options first (-C, -c, --git-dir, …), then the subcommand, low only for read-only forms.
import { type ArgToken, hasLong, hasShort, onlyAllowedOptions, operands, scanArgs } from './argv-options.ts';
import { type CommandClass, HIGH, READS, READS_MEDIUM, UNKNOWN, words, worst } from './command-class.ts';
import {
  BRANCH,
  HIGH_SUBCOMMANDS,
  isInertConfigKey,
  LOG,
  PROGRAM_OPTIONS,
  PROGRAM_SHORT,
  READ_ONLY_SUBCOMMANDS,
  type SubcommandTable,
  TAG,
} from './git-tables.ts';

export const GIT_GLOBAL_SPEC = {
  longValued: words('git-dir work-tree namespace super-prefix config-env attr-source list-cmds'),
  shortValued: 'Cc',
};
/** Global options that only choose where git looks or how it prints. */
const GLOBAL_SAFE = {
  long: words(
    'no-pager bare literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs no-replace-objects ' +
      'no-optional-locks no-lazy-fetch no-advice git-dir work-tree namespace attr-source version help ' +
      'html-path man-path info-path list-cmds',
  ),
  short: 'PCvh',
};

/** A config value set for this command: an inert key is medium, any other may run a program. */
function configValue(assignment: string | undefined): CommandClass {
  const key = (assignment ?? '').split('=')[0] ?? '';
  return isInertConfigKey(key) ? READS_MEDIUM : HIGH;
}

function globalOption(t: ArgToken): CommandClass {
  if (t.kind === 'short' && t.letter === 'c') return configValue(t.value);
  if (t.kind === 'long' && t.name === 'config-env') return configValue(t.value);
  // `--exec-path` alone prints the directory; with a value git runs its subcommands from there.
  if (t.kind === 'long' && t.name === 'exec-path') return t.value === undefined ? READS : HIGH;
  // A pager is a program; -p forces one.
  if ((t.kind === 'short' && t.letter === 'p') || (t.kind === 'long' && t.name === 'paginate'))
    return READS_MEDIUM;
  return onlyAllowedOptions([t], GLOBAL_SAFE) ? READS : UNKNOWN;
}

export function classifyGit(args: readonly string[]): CommandClass {
  const { tokens, rest } = scanArgs(args, GIT_GLOBAL_SPEC, true);
  const globals = tokens.map(globalOption);
  const [sub, ...subArgs] = rest;
  if (sub === undefined) return worst(READS, ...globals);
  // `git --help <cmd>` opens the manual page in a viewer.
  if (hasLong(tokens, 'help') || hasShort(tokens, 'h')) return worst(READS_MEDIUM, ...globals);
  return worst(...globals, classifySubcommand(sub, subArgs));
}

function classifySubcommand(sub: string, args: readonly string[]): CommandClass {
  if (HIGH_SUBCOMMANDS.has(sub)) return HIGH;
  const table = READ_ONLY_SUBCOMMANDS.get(sub);
  const spec = table ?? (sub === 'branch' ? BRANCH : sub === 'tag' ? TAG : {});
  const { tokens } = scanArgs(args, spec);
  const programShort = PROGRAM_SHORT.get(sub) ?? '';
  if (hasLong(tokens, ...PROGRAM_OPTIONS) || (programShort !== '' && hasShort(tokens, programShort))) {
    return HIGH;
  }
  switch (sub) {
    case 'push':
      return isForcedPush(tokens) ? HIGH : UNKNOWN;
    case 'config':
      return configCommand(args);
    case 'branch':
      return listForm(
        tokens,
        BRANCH,
        ['list', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'verbose', 'show-current'],
        'lv',
      );
    case 'tag':
      return listForm(
        tokens,
        TAG,
        ['list', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at'],
        'ln',
      );
    case 'stash':
      return subOperation(args, { list: LOG, show: LOG });
    case 'worktree':
      return subOperation(args, { list: { long: words('porcelain verbose expire null'), short: 'vz' } });
    case 'remote':
      if (args.every((a) => a === '-v' || a === '--verbose')) return READS;
      return subOperation(args, { 'get-url': { long: words('push all'), short: '' } });
    case 'reflog':
      if (args[0] === 'show' || args[0] === 'list') return subOperation(args, { [args[0]]: LOG });
      if (args[0] !== undefined && !args[0].startsWith('-')) return UNKNOWN;
      return onlyAllowedOptions(tokens, LOG) ? READS : UNKNOWN;
    case 'clean':
      return cleanCommand(tokens);
    case 'submodule':
      return operands(tokens).includes('foreach') ? HIGH : UNKNOWN;
    case 'bisect':
      return operands(tokens).includes('run') ? HIGH : UNKNOWN;
    case 'help': {
      const listOnly = { long: words('all guides config user-interfaces developer-interfaces'), short: 'ag' };
      return operands(tokens).length === 0 && onlyAllowedOptions(tokens, listOnly) ? READS : READS_MEDIUM;
    }
  }
  return table && onlyAllowedOptions(tokens, table) ? READS : UNKNOWN;
}

/** Rewrites or deletes remote history. */
function isForcedPush(tokens: readonly ArgToken[]): boolean {
  if (hasLong(tokens, 'force', 'force-with-lease', 'force-if-includes', 'delete', 'mirror', 'prune'))
    return true;
  if (hasShort(tokens, 'fd')) return true;
  return operands(tokens).some((o) => o.startsWith('+') || o.startsWith(':'));
}

/** branch / tag: listing is low; creating, deleting, moving or anything unknown is a write. */
function listForm(
  tokens: readonly ArgToken[],
  table: SubcommandTable,
  listLong: string[],
  listShort: string,
): CommandClass {
  if (!onlyAllowedOptions(tokens, table)) return UNKNOWN;
  if (operands(tokens).length === 0) return READS;
  return hasLong(tokens, ...listLong) || hasShort(tokens, listShort) ? READS : UNKNOWN;
}

/** `git stash list`, `git worktree list`, …: the named read-only operations with their read-only options. */
function subOperation(
  args: readonly string[],
  reads: Record<string, { long: ReadonlySet<string>; short: string }>,
): CommandClass {
  const [op, ...rest] = args;
  if (op === undefined || !Object.hasOwn(reads, op)) return UNKNOWN;
  const allow = reads[op]!;
  return onlyAllowedOptions(scanArgs(rest).tokens, allow) ? READS : UNKNOWN;
}

function cleanCommand(tokens: readonly ArgToken[]): CommandClass {
  const dryRun = hasLong(tokens, 'dry-run') || hasShort(tokens, 'n');
  if (dryRun && !hasLong(tokens, 'interactive') && !hasShort(tokens, 'i')) return READS;
  // Removing untracked directories or ignored files is a recursive delete, like `rm -r`.
  return hasShort(tokens, 'dxX') ? HIGH : UNKNOWN;
}

const CONFIG_READ = {
  long: words(
    'get get-all get-regexp get-urlmatch get-color get-colorbool list show-origin show-scope name-only null ' +
      'includes no-includes global system local worktree file blob type bool int bool-or-int path expiry-date ' +
      'default fixed-value',
  ),
  short: 'lzf',
};
const CONFIG_SPEC = { longValued: words('file blob type default'), shortValued: 'f' };
const CONFIG_WRITE = words('add replace-all unset unset-all rename-section remove-section');

/** `git config`: reading is low; writing is a write, and high unless the key is known to be inert. */
function configCommand(args: readonly string[]): CommandClass {
  const { tokens } = scanArgs(args, CONFIG_SPEC);
  const ops = operands(tokens);
  if (hasLong(tokens, 'edit') || hasShort(tokens, 'e') || ops[0] === 'edit') return HIGH;
  const writeOptions = tokens.filter((t) => t.kind === 'long' && CONFIG_WRITE.has(t.name));
  const others = tokens.filter((t) => !writeOptions.includes(t));
  if (!onlyAllowedOptions(others, CONFIG_READ)) return UNKNOWN;
  const newSyntax = ['get', 'list', 'set', 'unset', 'rename-section', 'remove-section'].includes(
    ops[0] ?? '',
  );
  if (newSyntax) {
    if (ops[0] === 'get' || ops[0] === 'list') return writeOptions.length === 0 ? READS : UNKNOWN;
    return ops[0] === 'set' ? configWrite(ops[1]) : UNKNOWN;
  }
  const isSet = hasLong(tokens, 'add', 'replace-all') || (writeOptions.length === 0 && ops.length >= 2);
  if (isSet) return configWrite(ops[0]);
  return writeOptions.length === 0 ? READS : UNKNOWN;
}

const configWrite = (key: string | undefined): CommandClass => (isInertConfigKey(key ?? '') ? UNKNOWN : HIGH);
