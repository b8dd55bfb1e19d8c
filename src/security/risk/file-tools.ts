// find, sort, uniq, sed, cp, ln, date: read-only forms are low, options that write name their targets.
import { hasLong, hasShort, onlyAllowedOptions, operands, optionValues, scanArgs } from './argv-options.ts';
import { type CommandClass, HIGH, READS, UNKNOWN, words, worst, writesTo } from './command-class.ts';

// --- find ---

/** Predicates that take one argument and only read. */
const FIND_VALUED = words(
  'name iname path ipath wholename iwholename regex iregex regextype type xtype size newer anewer cnewer mtime ' +
    'mmin atime amin ctime cmin used user group uid gid perm links inum samefile lname ilname maxdepth mindepth ' +
    'fstype context printf files0-from',
);
const FIND_FLAGS = words(
  'empty nouser nogroup readable writable executable depth mount xdev follow noleaf ignore_readdir_race ' +
    'noignore_readdir_race daystart true false not a and o or print print0 ls prune quit warn nowarn help version',
);
/** Predicates that write their argument (`-fprintf` also takes a format). */
const FIND_WRITES: ReadonlyMap<string, number> = new Map([
  ['fprint', 1],
  ['fprint0', 1],
  ['fls', 1],
  ['fprintf', 2],
]);
const FIND_RUNS = words('exec execdir ok okdir delete');

export function classifyFind(args: readonly string[]): CommandClass {
  const parts: CommandClass[] = [READS];
  let i = 0;
  // Leading options: -H -L -P, -D <debugopts>, -O<level>.
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-D') i++;
    else if (!['-H', '-L', '-P'].includes(a) && !/^-O\d*$/.test(a)) break;
  }
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-' || ['!', '(', ')', ','].includes(a)) continue;
    const name = a.slice(1);
    if (FIND_RUNS.has(name)) return HIGH;
    const writes = FIND_WRITES.get(name);
    if (writes !== undefined) {
      parts.push(writesTo(args.slice(i + 1, i + 2)));
      i += writes;
    } else if (FIND_VALUED.has(name) || /^newer[aBcmt][aBcmt]$/.test(name)) i++;
    else if (!FIND_FLAGS.has(name) && !(a.startsWith('--') && FIND_FLAGS.has(a.slice(2)))) return UNKNOWN;
  }
  return worst(...parts);
}

// --- sort ---

const SORT_SPEC = {
  longValued: words(
    'key field-separator buffer-size temporary-directory output parallel batch-size random-source ' +
      'files0-from compress-program sort',
  ),
  shortValued: 'ktSTo',
};
const SORT_OPTIONS = {
  long: words(
    'ignore-leading-blanks dictionary-order ignore-case general-numeric-sort human-numeric-sort ' +
      'ignore-nonprinting month-sort numeric-sort random-sort reverse version-sort check stable unique ' +
      'zero-terminated merge debug help version key field-separator buffer-size parallel batch-size ' +
      'random-source files0-from sort output temporary-directory',
  ),
  short: 'bdfghiMnRrVcCsuzmktSTo',
};

export function classifySort(args: readonly string[]): CommandClass {
  const { tokens } = scanArgs(args, SORT_SPEC);
  if (hasLong(tokens, 'compress-program')) return HIGH;
  if (!onlyAllowedOptions(tokens, SORT_OPTIONS)) return UNKNOWN;
  // -o writes the output file; -T puts temporary files in a directory.
  const targets = optionValues(tokens, ['output', 'temporary-directory'], 'oT');
  return targets.length > 0 ? writesTo(targets) : READS;
}

// --- uniq ---

const UNIQ_SPEC = { longValued: words('skip-fields skip-chars check-chars'), shortValued: 'fsw' };
const UNIQ_OPTIONS = {
  long: words(
    'count repeated all-repeated group ignore-case unique zero-terminated help version skip-fields ' +
      'skip-chars check-chars',
  ),
  short: 'cdDiuzfsw',
};

/** `uniq IN OUT` writes OUT. */
export function classifyUniq(args: readonly string[]): CommandClass {
  const { tokens } = scanArgs(args, UNIQ_SPEC);
  if (!onlyAllowedOptions(tokens, UNIQ_OPTIONS)) return UNKNOWN;
  const out = operands(tokens).slice(1);
  return out.length > 0 ? writesTo(out) : READS;
}

// --- sed ---

const SED_SPEC = { longValued: words('expression file line-length'), shortValued: 'efl' };
const SED_OPTIONS = {
  long: words(
    'quiet silent expression file regexp-extended separate unbuffered null-data line-length posix debug sandbox',
  ),
  short: 'nefErsuzl',
};

/** Without `--sandbox` a sed script can write files (`w`) and run commands (`e`); `-i` edits in place. */
export function classifySed(args: readonly string[]): CommandClass {
  const { tokens } = scanArgs(args, SED_SPEC);
  if (hasLong(tokens, 'in-place') || hasShort(tokens, 'i')) return UNKNOWN;
  return hasLong(tokens, 'sandbox') && onlyAllowedOptions(tokens, SED_OPTIONS) ? READS : UNKNOWN;
}

// --- cp, ln: the destination is written, the sources are only read ---

const COPY_SPEC = {
  longValued: words('target-directory suffix'),
  shortValued: 'tS',
};

export function classifyCopy(args: readonly string[]): CommandClass {
  const { tokens } = scanArgs(args, COPY_SPEC);
  const explicit = optionValues(tokens, ['target-directory'], 't');
  const ops = operands(tokens);
  const targets = explicit.length > 0 ? explicit : ops.slice(-1);
  return writesTo(targets);
}

// --- date ---

const DATE_SPEC = { longValued: words('date file reference set'), shortValued: 'dfrs' };

/** Reading the clock is low; setting it (`-s`, `--set`) changes the system. */
export function classifyDate(args: readonly string[]): CommandClass {
  const { tokens } = scanArgs(args, DATE_SPEC);
  if (hasLong(tokens, 'set') || hasShort(tokens, 's')) return HIGH;
  const allow = {
    long: words(
      'date file iso-8601 rfc-email rfc-3339 reference utc universal debug resolution help version',
    ),
    short: 'dfIrRu',
  };
  return onlyAllowedOptions(tokens, allow) ? READS : UNKNOWN;
}

// --- rm: recursive removal is high ---

export function classifyRm(args: readonly string[]): CommandClass {
  const { tokens } = scanArgs(args);
  const recursive = hasShort(tokens, 'rR') || hasLong(tokens, 'recursive');
  return writesTo('all', recursive ? 'high' : 'medium');
}
