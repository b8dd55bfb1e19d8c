// A small getopt: splits arguments into long options, short options and operands, given which take values.

export interface OptionSpec {
  /** Long options (no dashes) that take a value: `--name value` or `--name=value`. */
  longValued?: ReadonlySet<string>;
  /** Short letters that take a value: the rest of the cluster (`-Cdir`) or the next argument (`-C dir`). */
  shortValued?: string;
}

export type ArgToken =
  | { kind: 'long'; name: string; value: string | undefined }
  /** `#` stands for a numeric option such as `git log -5`. */
  | { kind: 'short'; letter: string; value: string | undefined }
  | { kind: 'operand'; value: string };

export interface Scan {
  tokens: ArgToken[];
  /** With `stopAtOperand`: the first operand and everything after it, unparsed. */
  rest: string[];
}

/** Parses `args`; after `--` everything is an operand. With `stopAtOperand` parsing ends at the first operand. */
export function scanArgs(args: readonly string[], spec: OptionSpec = {}, stopAtOperand = false): Scan {
  const tokens: ArgToken[] = [];
  const longValued = spec.longValued ?? new Set<string>();
  const shortValued = spec.shortValued ?? '';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      if (stopAtOperand) return { tokens, rest: args.slice(i + 1) };
      for (const a of args.slice(i + 1)) tokens.push({ kind: 'operand', value: a });
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (stopAtOperand) return { tokens, rest: args.slice(i) };
      tokens.push({ kind: 'operand', value: arg });
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      let value = eq >= 0 ? arg.slice(eq + 1) : undefined;
      if (value === undefined && longValued.has(name) && i + 1 < args.length) value = args[++i];
      tokens.push({ kind: 'long', name, value });
      continue;
    }
    if (/^-\d+$/.test(arg)) {
      tokens.push({ kind: 'short', letter: '#', value: arg.slice(1) });
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (!shortValued.includes(letter)) {
        tokens.push({ kind: 'short', letter, value: undefined });
        continue;
      }
      let value: string | undefined = arg.slice(j + 1);
      if (value === '') value = i + 1 < args.length ? args[++i] : undefined;
      tokens.push({ kind: 'short', letter, value });
      break;
    }
  }
  return { tokens, rest: [] };
}

export interface OptionAllowlist {
  long: ReadonlySet<string>;
  /** Allowed short letters; `#` admits numeric options. */
  short: string;
}

/** True when every option token is on the allowlist (operands are not looked at). */
export function onlyAllowedOptions(tokens: readonly ArgToken[], allow: OptionAllowlist): boolean {
  return tokens.every((t) => {
    if (t.kind === 'operand') return true;
    if (t.kind === 'long') return allow.long.has(t.name);
    return allow.short.includes(t.letter);
  });
}

export const operands = (tokens: readonly ArgToken[]) =>
  tokens.flatMap((t) => (t.kind === 'operand' ? [t.value] : []));

export const hasLong = (tokens: readonly ArgToken[], ...names: string[]) =>
  tokens.some((t) => t.kind === 'long' && names.includes(t.name));

export const hasShort = (tokens: readonly ArgToken[], letters: string) =>
  tokens.some((t) => t.kind === 'short' && letters.includes(t.letter));

/** Values of the named long options and short letters, in order. */
export function optionValues(tokens: readonly ArgToken[], longNames: string[], letters = ''): string[] {
  return tokens.flatMap((t) => {
    if (t.kind === 'long' && longNames.includes(t.name) && t.value !== undefined) return [t.value];
    if (t.kind === 'short' && letters.includes(t.letter) && t.value !== undefined) return [t.value];
    return [];
  });
}
