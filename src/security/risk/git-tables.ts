// Read-only option allowlists of the git subcommands that may run at low risk, and git's inert config keys.
import type { OptionAllowlist, OptionSpec } from './argv-options.ts';
import { words } from './command-class.ts';

export interface SubcommandTable extends OptionAllowlist, OptionSpec {}

const table = (long: string, short: string, longValued = '', shortValued = ''): SubcommandTable => ({
  long: words(long),
  short,
  longValued: words(longValued),
  shortValued,
});

/**
 * Revision walking and diff output options shared by log, show, diff and their plumbing relatives. `--textconv`
 * (here, in grep and cat-file, like cat-file's `--filters`) is left out: it runs a driver the repository names.
 */
const LOG_LONG =
  'oneline graph decorate no-decorate decorate-refs decorate-refs-exclude stat shortstat numstat name-only ' +
  'name-status patch no-patch format pretty abbrev-commit no-abbrev-commit abbrev date relative-date all ' +
  'branches tags remotes max-count skip since after until before author committer grep regexp-ignore-case ' +
  'extended-regexp fixed-strings perl-regexp basic-regexp all-match invert-grep merges no-merges first-parent ' +
  'reverse follow cached staged color no-color word-diff word-diff-regex color-words color-moved ignore-all-space ' +
  'ignore-space-change ignore-space-at-eol ignore-blank-lines ignore-cr-at-eol unified function-context check ' +
  'exit-code quiet diff-filter find-renames find-copies find-copies-harder no-renames text minimal patience ' +
  'histogram diff-algorithm src-prefix dst-prefix no-prefix full-index binary raw summary dirstat relative ' +
  'no-relative merge-base show-signature notes no-notes left-right cherry-pick cherry-mark cherry boundary ' +
  'simplify-by-decoration full-history ancestry-path topo-order date-order author-date-order parents children ' +
  'walk-reflogs source log-size mailmap use-mailmap no-mailmap encoding expand-tabs no-expand-tabs submodule ' +
  'ignore-submodules no-textconv no-ext-diff count min-parents max-parents no-min-parents ' +
  'no-max-parents not objects objects-edge in-commit-order no-walk do-walk dense sparse remove-empty ' +
  'numbered summary-only committer-date-is-author-date name-only creation-factor no-dual-color ' +
  'compact-summary patch-with-stat patch-with-raw indent-heuristic no-indent-heuristic anchored inter-hunk-context ' +
  'break-rewrites irreversible-delete line-prefix ita-invisible-in-index ita-visible-in-index root ' +
  'no-color-moved pickaxe-all pickaxe-regex show-pulls single-worktree exclude exclude-hidden glob ' +
  'ignore-missing bisect reflog alternate-refs filter-print-omitted timestamp clear-decorations';
const LOG_SHORT = 'pusznEFPiMCBDRabwWULGSgmctlrvq#';
const LOG_VALUED = 'max-count skip since after until before author committer grep format pretty';

export const LOG = table(LOG_LONG, LOG_SHORT, LOG_VALUED, 'nULGS');

const GREP = table(
  'text no-textconv ignore-case max-depth recursive no-recursive word-regexp invert-match full-name ' +
    'extended-regexp basic-regexp fixed-strings perl-regexp line-number column files-with-matches name-only ' +
    'files-without-match null only-matching count color no-color break heading show-function after-context ' +
    'before-context context function-context threads and or not all-match quiet cached untracked no-index ' +
    'exclude-standard no-exclude-standard recurse-submodules max-count',
  'aiIrwvhHEGFPnlLzocpABCWfeqm#',
  'max-depth after-context before-context context threads max-count',
  'ABCfem',
);

const STATUS = table(
  'short branch porcelain long verbose untracked-files ignored ignore-submodules column no-column ' +
    'ahead-behind no-ahead-behind renames no-renames find-renames show-stash null',
  'sbvuz',
);

const BLAME = table(
  'root show-stats show-name show-number show-email incremental porcelain line-porcelain reverse first-parent ' +
    'abbrev date progress no-progress contents ignore-rev ignore-revs-file color-lines color-by-age encoding ' +
    'score-debug',
  'bfnsewctlLMCS',
  'contents ignore-rev ignore-revs-file',
  'LS',
);

const LS_FILES = table(
  'cached deleted modified others ignored stage unmerged killed exclude exclude-from exclude-per-directory ' +
    'exclude-standard error-unmatch full-name recurse-submodules abbrev debug eol deduplicate sparse format ' +
    'directory no-empty-directory with-tree resolve-undo',
  'cdmoisuktvfzxX',
  'exclude exclude-from exclude-per-directory',
  'xX',
);

const REV_PARSE = table(
  'git-path show-toplevel abbrev-ref short verify is-inside-work-tree is-inside-git-dir git-dir ' +
    'absolute-git-dir show-prefix symbolic-full-name symbolic sq-quote sq quiet all branches tags remotes glob ' +
    'local-env-vars is-bare-repository is-shallow-repository show-cdup show-superproject-working-tree ' +
    'shared-index-path default revs-only no-revs flags no-flags since after until before resolve-git-dir ' +
    'path-format git-common-dir show-object-format show-ref-format not prefix disambiguate exclude',
  'q',
);

const LS_TREE = table('long name-only name-status object-only full-name full-tree abbrev format', 'drtlz');
const CAT_FILE = table(
  'batch batch-check batch-command batch-all-objects buffer unordered allow-unknown-type ' +
    'follow-symlinks path mailmap use-mailmap no-mailmap',
  'tspe',
);
const SHOW_REF = table('head heads tags branches verify exists dereference hash abbrev quiet', 'dsq');
const FOR_EACH_REF = table(
  'count sort format color shell perl python tcl points-at merged no-merged contains no-contains ' +
    'ignore-case omit-empty include-root-refs exclude start-after',
  '',
  'count sort format points-at merged no-merged contains no-contains exclude',
);
const DESCRIBE = table(
  'all tags contains abbrev candidates exact-match debug long match exclude always first-parent dirty broken',
  '',
);
const MERGE_BASE = table('all octopus independent is-ancestor fork-point', 'a');
const NAME_REV = table('tags refs exclude all annotate-stdin name-only no-undefined always', '');
const CHECK_IGNORE = table('quiet verbose non-matching no-index null', 'qvnz');
const CHECK_ATTR = table('all cached source null', 'az');
const COUNT_OBJECTS = table('verbose human-readable', 'vH');
const SHOW_BRANCH = table(
  'remotes all current topo-order date-order sparse more list merge-base independent no-name sha1-name ' +
    'topics color no-color',
  'ra',
);

/** Read-only git subcommands (their list forms are decided in git.ts) with their read-only options. */
export const READ_ONLY_SUBCOMMANDS: ReadonlyMap<string, SubcommandTable> = new Map([
  ['status', STATUS],
  ['log', LOG],
  ['show', LOG],
  ['diff', LOG],
  ['whatchanged', LOG],
  ['shortlog', LOG],
  ['rev-list', LOG],
  ['diff-tree', LOG],
  ['diff-files', LOG],
  ['diff-index', LOG],
  ['range-diff', LOG],
  ['grep', GREP],
  ['blame', BLAME],
  ['annotate', BLAME],
  ['ls-files', LS_FILES],
  ['ls-tree', LS_TREE],
  ['rev-parse', REV_PARSE],
  ['cat-file', CAT_FILE],
  ['show-ref', SHOW_REF],
  ['for-each-ref', FOR_EACH_REF],
  ['describe', DESCRIBE],
  ['merge-base', MERGE_BASE],
  ['name-rev', NAME_REV],
  ['check-ignore', CHECK_IGNORE],
  ['check-attr', CHECK_ATTR],
  ['count-objects', COUNT_OBJECTS],
  ['show-branch', SHOW_BRANCH],
  ['version', table('build-options', '')],
  ['var', table('list', 'l')],
]);

/** Options that name a program git runs: high wherever they appear. */
export const PROGRAM_OPTIONS = words('open-files-in-pager upload-pack receive-pack exec extcmd tool');
/** Short forms of those, per subcommand. */
export const PROGRAM_SHORT: ReadonlyMap<string, string> = new Map([
  ['grep', 'O'],
  ['clone', 'u'],
  ['rebase', 'x'],
  ['difftool', 'xt'],
  ['mergetool', 't'],
]);

/** Subcommands that run programs or serve the network. */
export const HIGH_SUBCOMMANDS = words(
  'filter-branch daemon instaweb send-email imap-send difftool mergetool credential http-backend ' +
    'upload-pack receive-pack shell remote-ext fsmonitor--daemon',
);

/** Branch and tag options that keep them in list mode. */
export const BRANCH = table(
  'list all remotes verbose contains no-contains merged no-merged points-at sort format show-current color ' +
    'no-color column no-column ignore-case omit-empty abbrev no-abbrev',
  'larvi',
  'contains no-contains merged no-merged points-at sort format',
);
export const TAG = table(
  'list contains no-contains merged no-merged points-at sort format color column no-column ignore-case ' +
    'omit-empty',
  'lni#',
  'contains no-contains merged no-merged points-at sort format',
  'n',
);

/**
 * Config keys that only change output or identity. Any other key may run a program (pager, editor, hooks,
 * fsmonitor, sshCommand, aliases, drivers, helpers, includes, safe.directory …), so setting it is high risk.
 */
const INERT_KEYS = words(
  'user.name user.email core.quotepath core.abbrev log.date log.decorate log.follow log.abbrevcommit ' +
    'diff.noprefix diff.renames diff.algorithm diff.context diff.mnemonicprefix init.defaultbranch ' +
    'format.pretty pull.rebase merge.conflictstyle status.short status.branch column.ui i18n.logoutputencoding',
);
export const isInertConfigKey = (key: string) => {
  const k = key.toLowerCase();
  return INERT_KEYS.has(k) || /^(color|advice)\.[a-z0-9.-]+$/.test(k);
};
