// npm and cargo: low only for subcommands that read (list, view, metadata, …) with read-only options.
import { type ArgToken, hasLong, onlyAllowedOptions, operands, scanArgs } from './argv-options.ts';
import { type CommandClass, HIGH, READS, READS_MEDIUM, UNKNOWN, words } from './command-class.ts';

// --- npm ---

/** npm takes options anywhere; these take a separate value, so that value is not mistaken for a subcommand. */
const NPM_SPEC = {
  longValued: words(
    'depth omit include workspace loglevel location registry prefix userconfig globalconfig cache ' +
      'script-shell shell editor browser viewer node-options git call',
  ),
  shortValued: 'wC',
};
const NPM_READ_OPTIONS = {
  long: words(
    'json long parseable all global omit include production dev link unicode color no-color silent quiet ' +
      'loglevel depth workspaces workspace include-workspace-root package-lock-only location registry ' +
      'version help usage',
  ),
  short: 'aglpsqdwvh',
};
/** Options that name a program npm runs, or code it loads. */
const NPM_PROGRAM_OPTIONS = [
  'script-shell',
  'shell',
  'editor',
  'browser',
  'viewer',
  'node-options',
  'git',
  'call',
];

const NPM_READS = words(
  'ls list la ll view v info show outdated help help-search explain why root prefix search s se find ' +
    'whoami ping query',
);
/** Subcommands that run another program or package. */
const NPM_RUNS = words('explore exec x');

export function classifyNpm(args: readonly string[]): CommandClass {
  const { tokens } = scanArgs(args, NPM_SPEC);
  if (hasLong(tokens, ...NPM_PROGRAM_OPTIONS)) return HIGH;
  const [sub, ...rest] = operands(tokens);
  if (sub !== undefined && NPM_RUNS.has(sub)) return HIGH;
  if (!onlyAllowedOptions(tokens, NPM_READ_OPTIONS)) return UNKNOWN;
  if (sub === undefined) return READS;
  if (NPM_READS.has(sub)) return READS;
  if (sub === 'config' || sub === 'c') return ['get', 'list', 'ls'].includes(rest[0] ?? '') ? READS : UNKNOWN;
  if (sub === 'audit') return rest.length === 0 || rest[0] === 'signatures' ? READS : UNKNOWN;
  // version, pack, stop, run, test, start, install, …: they write or run package scripts.
  return UNKNOWN;
}

// --- cargo ---

const CARGO_SPEC = {
  longValued: words(
    'config color format-version features filter-platform manifest-path package exclude invert edges prefix ' +
      'depth charset target format limit registry index message-format prune',
  ),
  shortValued: 'CZpFief',
};
const CARGO_READ_OPTIONS = {
  long: words(
    'version list verbose quiet color locked offline frozen help format-version no-deps features ' +
      'all-features no-default-features filter-platform manifest-path package workspace exclude invert edges ' +
      'prefix depth charset duplicates target format limit registry index message-format no-dedupe prune workspace',
  ),
  short: 'Vvqhpfied',
};
const CARGO_READS = words('metadata tree version locate-project read-manifest pkgid verify-project search');
/** Config keys that only change output; others may name a program (rustc-wrapper, runner, linker, …). */
const CARGO_INERT_CONFIG = /^(term\.[a-z.-]+|net\.offline|build\.jobs)\s*=/;

function cargoConfig(t: ArgToken): CommandClass | null {
  if (t.kind !== 'long' || t.name !== 'config') return null;
  return CARGO_INERT_CONFIG.test(t.value ?? '') ? READS_MEDIUM : HIGH;
}

export function classifyCargo(args: readonly string[]): CommandClass {
  const { tokens } = scanArgs(args, CARGO_SPEC);
  const configs = tokens.map(cargoConfig).filter((c): c is CommandClass => c !== null);
  if (configs.some((c) => c.risk === 'high')) return HIGH;
  const others = tokens.filter((t) => cargoConfig(t) === null);
  const [sub] = operands(tokens);
  // build, check, test, run (and b, c, t, r), install, …: they compile and run build scripts; `+toolchain`
  // and `cargo <plugin>` run other programs.
  if (sub !== undefined && !CARGO_READS.has(sub)) return UNKNOWN;
  if (!onlyAllowedOptions(others, CARGO_READ_OPTIONS)) return UNKNOWN;
  return configs.length > 0 ? READS_MEDIUM : READS;
}
