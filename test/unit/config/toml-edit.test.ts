// setDelegationPolicyMode changes one value span and nothing else: parsing the output equals parsing the input
// with only risk_profiles.<p>.delegation_policy.mode changed, and every other byte stays as written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { profileNotDefined } from '../../../src/config/edit-messages.ts';
import { type DelegationPolicyMode, setDelegationPolicyMode } from '../../../src/config/toml-edit.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const shipped = (name: string) => readFileSync(join(ROOT, 'config', name), 'utf8');

type Doc = Record<string, Record<string, Record<string, Record<string, unknown>>>>;

/** The input's document with the one value set: what the output must parse to. */
function expectedDoc(text: string, profile: string, mode: string): unknown {
  const doc = parse(text) as Doc;
  const p = (doc.risk_profiles?.[profile] ?? {}) as Record<string, Record<string, unknown>>;
  p.delegation_policy = { ...p.delegation_policy, mode };
  return doc;
}

/** Edits, checks the parse property, and returns the output. */
function editOk(text: string, profile: string, mode: DelegationPolicyMode): string {
  const r = setDelegationPolicyMode(text, profile, mode);
  if (!r.ok) throw new Error(r.error);
  expect(parse(r.text)).toEqual(expectedDoc(text, profile, mode));
  return r.text;
}

/** Lines of `after` not in `before` (and the count removed), by a line-level diff of equal prefix/suffix. */
function lineDiff(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let e = 0;
  while (e < a.length - s && e < b.length - s && a[a.length - 1 - e] === b[b.length - 1 - e]) e++;
  return { removed: a.slice(s, a.length - e), added: b.slice(s, b.length - e) };
}

const FIXTURES: { name: string; profile: string; text: string }[] = [
  {
    name: 'inline table',
    profile: 'a',
    text: '[risk_profiles.a]\nlevel = "full"\ndelegation_policy = { mode = "forbidden" }  # why\n\n[agents.x]\nrisk_profile = "a"\n',
  },
  {
    name: 'inline table, literal quotes and odd spacing',
    profile: 'a',
    text: "[risk_profiles.a]\n  delegation_policy={mode='forbidden',}\n",
  },
  {
    name: 'sub-table',
    profile: 'a',
    text: '# top\n[risk_profiles.a]\nlevel = "supervised"\n\n[risk_profiles.a.delegation_policy]\n# mode = "allow" in a comment\nmode   =   "forbidden"   # keep me\n\n[risk_profiles.b]\n',
  },
  {
    name: 'dotted key',
    profile: 'a',
    text: '[risk_profiles.a]\ndelegation_policy.mode = "allow"\nlevel = "full"\n',
  },
  {
    name: 'quoted table name',
    profile: 'ops team',
    text: '[risk_profiles."ops team"]\nlevel = "full" # trailing ] comment\n\n[risk_profiles."ops team".approval_route]\napprover_channel = "slack.ops"\n',
  },
  {
    name: 'quoted, with whitespace around dots',
    profile: 'ops.team',
    text: '[ risk_profiles . "ops.team" ]\ndelegation_policy = { mode = "forbidden" }\n',
  },
  {
    name: 'no delegation_policy, multi-line array and tricky strings',
    profile: 'a',
    text: `[risk_profiles.a]
allowed_commands = [
  "git", # a comment with mode = "allow" and ]
  "ls]",
  'cat [x]',
]
note = """
[risk_profiles.a.delegation_policy]
mode = "allow"
"""
forbidden_paths = ['/etc'] # ]

# trailing comment block stays below the new line

[agents.x]
risk_profile = "a"
`,
  },
  {
    name: 'empty profile table followed by a sub-table',
    profile: 'a',
    text: '[risk_profiles.a]\n\n[risk_profiles.a.approval_route]\napprover_channel = "x"\n',
  },
  {
    name: 'only a sub-table',
    profile: 'a',
    text: '[risk_profiles.b]\nlevel = "full"\n\n[risk_profiles.a.approval_route]\napprover_channel = "x"\n',
  },
  {
    name: 'inline profile',
    profile: 'b',
    text: '[risk_profiles]\na.level = "full"\nb = { level = "full" } # inline\n',
  },
  {
    name: 'dotted profile keys',
    profile: 'a',
    text: '[risk_profiles]\na.level = "full"\n\n[agents.x]\n',
  },
  {
    name: 'empty inline delegation_policy',
    profile: 'a',
    text: '[risk_profiles.a]\ndelegation_policy = {}\n',
  },
  {
    name: 'CRLF line endings',
    profile: 'a',
    text: '[risk_profiles.a]\r\nlevel = "full"\r\n\r\n[agents.x]\r\n',
  },
  {
    name: 'array of tables and dates nearby',
    profile: 'a',
    text: '[[extra]]\nwhen = 1979-05-27 07:32:00Z\n[[extra]]\nx = 1\n[risk_profiles.a]\nt = 07:32:00\n',
  },
];

describe('setDelegationPolicyMode', () => {
  for (const f of FIXTURES) {
    it(`${f.name}: parse(out) = parse(in) with only the mode changed, both ways`, () => {
      const allowed = editOk(f.text, f.profile, 'allow');
      const back = editOk(allowed, f.profile, 'forbidden');
      // A second flip touches only the value span: same length class, same lines elsewhere.
      expect(lineDiff(allowed, back).removed).toHaveLength(lineDiff(allowed, back).added.length);
      // Every line of the input survives (the value line aside): nothing reformatted.
      const { removed } = lineDiff(f.text, allowed);
      expect(removed.length).toBeLessThanOrEqual(1);
      for (const line of removed) expect(line).toMatch(/delegation_policy|mode|risk_profiles|\{/);
    });
  }

  it('changes only the value span of an existing key (byte-exact)', () => {
    const text = FIXTURES[2]?.text ?? '';
    expect(editOk(text, 'a', 'allow')).toBe(text.replace('"forbidden"   # keep me', '"allow"   # keep me'));
    const lit = FIXTURES[1]?.text ?? '';
    expect(editOk(lit, 'a', 'allow')).toBe(lit.replace("mode='forbidden'", "mode='allow'"));
  });

  it('inserts one line right after the last key line of the profile table', () => {
    const text = FIXTURES[6]?.text ?? '';
    const out = editOk(text, 'a', 'allow');
    expect(out).toBe(
      text.replace(
        "forbidden_paths = ['/etc'] # ]\n",
        'forbidden_paths = [\'/etc\'] # ]\ndelegation_policy = { mode = "allow" }\n',
      ),
    );
    const crlf = FIXTURES[12]?.text ?? '';
    expect(editOk(crlf, 'a', 'allow')).toBe(
      crlf.replace('level = "full"\r\n', 'level = "full"\r\ndelegation_policy = { mode = "allow" }\r\n'),
    );
  });

  it('refuses a profile the file does not define, and text that is not TOML', () => {
    expect(setDelegationPolicyMode('[risk_profiles.a]\n', 'b', 'allow')).toEqual({
      ok: false,
      error: profileNotDefined('b'),
    });
    expect(setDelegationPolicyMode('[risk_profiles.a\n', 'a', 'allow').ok).toBe(false);
  });

  for (const name of ['baton.toml', 'baton.example.toml']) {
    it(`config/${name}: every profile flips both ways with every comment intact`, () => {
      const text = shipped(name);
      const profiles = Object.keys((parse(text) as Doc).risk_profiles ?? {});
      expect(profiles.length).toBeGreaterThan(0);
      for (const p of profiles) {
        for (const mode of ['allow', 'forbidden'] as const) {
          const out = editOk(text, p, mode);
          // Already that value: the text comes back byte-identical.
          if (out === text) continue;
          const { removed, added } = lineDiff(text, out);
          // Either one value changed in place (one line for one line) or one line was inserted.
          expect(removed.length).toBeLessThanOrEqual(1);
          expect(added).toHaveLength(1);
          expect(added[0]).toContain(mode);
          // In place: the same line with only the quoted value replaced.
          if (removed[0] !== undefined)
            expect(added[0]).toBe(
              removed[0].replace(/(["'])(forbidden|allow)\1/, (_m, q) => `${q}${mode}${q}`),
            );
          // Comments are byte-identical: the comment lines of input and output are the same list.
          const comments = (t: string) => t.split('\n').filter((l) => l.trimStart().startsWith('#'));
          expect(comments(out)).toEqual(comments(text));
        }
      }
    });
  }
});
