// Recursive readers told to follow the symbolic links they meet: a link inside the workspace can lead them
// anywhere, past the path checks, which only see the arguments. Returns the option that does it, or null.
import { basename } from 'node:path';
import { type ArgToken, hasLong, hasShort, scanArgs } from './argv-options.ts';

type Finder = (args: readonly string[]) => string | null;

const option = (tokens: readonly ArgToken[], letters: string, ...longs: string[]): string | null => {
  const t = tokens.find(
    (t) =>
      (t.kind === 'short' && letters.includes(t.letter)) || (t.kind === 'long' && longs.includes(t.name)),
  );
  if (!t) return null;
  return t.kind === 'long' ? `--${t.name}` : t.kind === 'short' ? `-${t.letter}` : null;
};

const GREP_SPEC = {
  longValued: new Set(['regexp', 'file', 'after-context', 'before-context', 'context', 'max-count']),
  shortValued: 'efABCmdD',
};
const grep: Finder = (args) => option(scanArgs(args, GREP_SPEC).tokens, 'R', 'dereference-recursive');

const recursiveWith =
  (
    spec: { longValued?: ReadonlySet<string>; shortValued?: string },
    deref: [string, string],
    rec: [string, string],
  ): Finder =>
  (args) => {
    const { tokens } = scanArgs(args, spec);
    if (!hasShort(tokens, rec[0]) && !hasLong(tokens, rec[1])) return null;
    return option(tokens, deref[0], deref[1]);
  };

const ls = recursiveWith(
  {
    longValued: new Set(['ignore', 'hide', 'tabsize', 'width', 'format', 'sort', 'time-style']),
    shortValued: 'ITw',
  },
  ['L', 'dereference'],
  ['R', 'recursive'],
);
const cp = recursiveWith(
  { longValued: new Set(['target-directory', 'suffix']), shortValued: 'tS' },
  ['L', 'dereference'],
  ['rRa', 'recursive'],
);
/** du is recursive by itself. */
const du: Finder = (args) =>
  option(
    scanArgs(args, {
      longValued: new Set(['block-size', 'max-depth', 'threshold', 'exclude-from', 'exclude']),
      shortValued: 'BdtX',
    }).tokens,
    'L',
    'dereference',
  );

/** find's -L before the paths, or -follow among the expression. */
const find: Finder = (args) => {
  for (const a of args) {
    if (a === '-L') return '-L';
    if (a === '-follow') return '-follow';
  }
  return null;
};

/** diff -r follows links unless told not to. */
const diff: Finder = (args) => {
  const { tokens } = scanArgs(args, {
    longValued: new Set(['exclude', 'exclude-from', 'label', 'from-file', 'to-file']),
    shortValued: 'xXFIS',
  });
  if (hasLong(tokens, 'no-dereference')) return null;
  return option(tokens, 'r', 'recursive');
};

/** tar -h (also in an old-style first word like `chf`). */
const tar: Finder = (args) => {
  if (args[0] !== undefined && !args[0].startsWith('-') && args[0].includes('h')) return args[0];
  return option(scanArgs(args, { shortValued: 'fCTXbgKLNV' }).tokens, 'h', 'dereference');
};

/** zip -r stores what links point to unless -y keeps them as links. */
const zip: Finder = (args) => {
  const { tokens } = scanArgs(args, { shortValued: 'bnxitP' });
  if (hasShort(tokens, 'y') || hasLong(tokens, 'symlinks')) return null;
  return option(tokens, 'rR', 'recurse-paths', 'recurse-patterns');
};

const FINDERS: ReadonlyMap<string, Finder> = new Map([
  ['grep', grep],
  ['egrep', grep],
  ['fgrep', grep],
  ['ls', ls],
  ['cp', cp],
  ['du', du],
  ['find', find],
  ['diff', diff],
  ['tar', tar],
  ['zip', zip],
]);

export function followsLinksRecursively(argv: readonly string[]): string | null {
  const finder = FINDERS.get(basename(argv[0] ?? '').toLowerCase());
  return finder ? finder(argv.slice(1)) : null;
}
