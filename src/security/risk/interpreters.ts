// Interpreters: evaluating code given on the command line is high, running a script file is medium.
import { type CommandClass, HIGH, READS, UNKNOWN, words } from './command-class.ts';

interface Interpreter {
  /** Short letters that evaluate code (in a cluster too: `-pe`, `-ne`, `-le`). */
  evalShort: string;
  evalLong: ReadonlySet<string>;
  /** Short letters that take the rest of the cluster or the next argument as their value. */
  valuedShort: string;
  valuedLong: ReadonlySet<string>;
  /** Whether a valued short letter at the end of a cluster takes the next argument (perl's never do). */
  consumesNext: boolean;
  /** Short letters followed by optional digits only (perl's `-l`, `-0`). */
  digitShort: string;
  /** Arguments that only print information (version, help). */
  info: ReadonlySet<string>;
}

const interp = (
  evalShort: string,
  evalLong: string,
  valuedShort: string,
  valuedLong: string,
  info: string,
  consumesNext = true,
  digitShort = '',
): Interpreter => ({
  evalShort,
  evalLong: words(evalLong),
  valuedShort,
  valuedLong: words(valuedLong),
  info: words(info),
  consumesNext,
  digitShort,
});

// python's -E ignores the environment; only -c evaluates code.
const PYTHON = interp('c', '', 'cmWXQ', 'check-hash-based-pycs', '-V -VV --version -h --help');
const NODE = interp(
  'ep',
  'eval print',
  'r',
  'require import input-type loader experimental-loader title conditions env-file',
  '-v --version -h --help',
);
// perl builds `use Module …;` code from -M/-m, so they evaluate their argument too.
const PERL = interp('eEMm', '', 'iIxdDC', '', '-v --version -V -h', false, 'l0');
const RUBY = interp(
  'e',
  '',
  'rICEKxFi',
  'encoding external-encoding internal-encoding',
  '-v --version -h --help',
  false,
  '0',
);
const PHP = interp(
  'rRBE',
  'run process-begin process-code process-end',
  'fcdzt',
  'php-ini define',
  '-v --version -h --help -m -i',
);
const BUN = interp('ep', 'eval print', '', '', '-v --version -h --help');

const TABLE: ReadonlyMap<string, Interpreter> = new Map([
  ['node', NODE],
  ['nodejs', NODE],
  ['perl', PERL],
  ['ruby', RUBY],
  ['php', PHP],
  ['bun', BUN],
]);

export function interpreterOf(program: string): Interpreter | undefined {
  if (/^(python|pypy)(\d+(\.\d+)?)?$/.test(program)) return PYTHON;
  return TABLE.get(program);
}

/** Classifies the interpreter's own options; arguments after the script belong to the script. */
export function classifyInterpreter(it: Interpreter, args: readonly string[]): CommandClass {
  if (args.length === 1 && it.info.has(args[0]!)) return READS;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || !arg.startsWith('-') || arg === '-') break;
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0] ?? '';
      if (it.evalLong.has(name)) return HIGH;
      if (it.valuedLong.has(name) && !arg.includes('=')) i++;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (it.evalShort.includes(letter)) return HIGH;
      if (it.digitShort.includes(letter)) {
        while (j + 1 < arg.length && /[0-9a-fA-Fx]/.test(arg[j + 1]!) && !it.evalShort.includes(arg[j + 1]!))
          j++;
        continue;
      }
      if (it.valuedShort.includes(letter)) {
        if (j === arg.length - 1 && it.consumesNext) i++;
        break;
      }
    }
  }
  // A script file, a module or stdin: code the classifier cannot see.
  return UNKNOWN;
}

/** deno: `deno eval` and `repl --eval` evaluate code; other subcommands run code from files. */
export function classifyDeno(args: readonly string[]): CommandClass {
  const [sub, ...rest] = args;
  if (args.length === 1 && ['-V', '--version', '-h', '--help', 'help'].includes(sub ?? '')) return READS;
  if (sub === 'eval') return HIGH;
  if (
    sub === 'repl' &&
    rest.some((a) => a === '--eval' || a.startsWith('--eval=') || a.startsWith('--eval-file'))
  )
    return HIGH;
  return UNKNOWN;
}
