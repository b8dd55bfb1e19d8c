// Recognises delegate's synchronous success envelope (delegate.md §9.2, §9.5, §10.2) and its parallel blocks
// (§13) in a stored tool result. The patterns are built from the producers' own text functions, so a change there
// (or a catalog override of the fallback texts) changes what is recognised here.
import {
  fallbackHeader,
  fallbackWarning,
  PARALLEL_FAILED,
  parallelBlockHeader,
  parallelHeader,
  successHeader,
} from '../../tools/delegate/delegate-messages.ts';

export interface EnvelopeDetails {
  agentic: boolean;
  /** `<provider_type>/<model>` of a plain success; null after a fallback. */
  served: string;
  /** The requested `<provider>/<model>` when a later candidate served it (§10.2). */
  requested: string | null;
  /** The fallback warning line, when present. */
  warning: string | null;
}

export interface SyncEnvelope {
  response: string;
  details: EnvelopeDetails;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Placeholders no header text contains; replaced by capture groups after escaping the rest.
const A = '\u0001a\u0001';
const P1 = '\u0001p\u0001';
const M1 = '\u0001m\u0001';
const P2 = '\u0001q\u0001';
const M2 = '\u0001n\u0001';

function headerPattern(template: string): RegExp {
  const src = escapeRe(template)
    .replace(escapeRe(A), '(.+?)')
    .replace(escapeRe(P1), '([^/\\s;]+)')
    .replace(escapeRe(M1), '(.*?)')
    .replace(escapeRe(P2), '([^/\\s;]+)')
    .replace(escapeRe(M2), '(.*?)');
  return new RegExp(`^${src}$`, 's');
}

interface Patterns {
  plain: readonly [RegExp, boolean][];
  fallback: readonly [RegExp, boolean][];
  warning: string;
}

let cached: Patterns | undefined;
function patterns(): Patterns {
  cached ??= {
    // Agentic first: a plain pattern's model group would also swallow `, agentic`.
    plain: [true, false].map((ag) => [headerPattern(successHeader(A, P1, M1, ag)), ag] as const),
    fallback: [true, false].map(
      (ag) =>
        [
          headerPattern(fallbackHeader(A, { provider: P1, model: M1 }, { provider: P2, model: M2 }, ag)),
          ag,
        ] as const,
    ),
    warning: fallbackWarning(),
  };
  return cached;
}

/**
 * The envelope of a synchronous success for target `agent`, or null when `text` is anything else (a failure,
 * a refusal, a cut result whose warning was lost): those are shown as they are.
 */
export function parseSyncEnvelope(text: string, agent: string): SyncEnvelope | null {
  const nl = text.indexOf('\n');
  if (nl < 0) return null;
  const first = text.slice(0, nl);
  const rest = text.slice(nl + 1);
  const p = patterns();
  // Fallback first: its header would otherwise pass for a plain one with an odd provider name.
  const tail = `\n\n${p.warning}`;
  for (const [re, agentic] of p.fallback) {
    const m = re.exec(first);
    if (!m || m[1] !== agent) continue;
    // Header and warning exactly once each (§10.2): anything else is not this envelope.
    if (!rest.endsWith(tail)) return null;
    const response = rest.slice(0, -tail.length);
    if (response.includes(p.warning)) return null;
    return {
      response,
      details: { agentic, served: `${m[4]}/${m[5]}`, requested: `${m[2]}/${m[3]}`, warning: p.warning },
    };
  }
  for (const [re, agentic] of p.plain) {
    const m = re.exec(first);
    if (m && m[1] === agent)
      return {
        response: rest,
        details: { agentic, served: `${m[2]}/${m[3]}`, requested: null, warning: null },
      };
  }
  return null;
}

export interface ParallelBlock {
  agent: string;
  /** The block's text after its header line: the child's output and/or `Error: …`. */
  text: string;
}

/**
 * Splits a parallel result into its per-target blocks, in list order, for the `targets` the call named (trimmed,
 * blanks dropped, as the tool does). Null when the text is not that aggregate (a validation refusal, a join error).
 */
export function parseParallelBlocks(text: string, targets: readonly string[]): ParallelBlock[] | null {
  const head = `${parallelHeader(targets.length)}\n\n`;
  if (targets.length === 0 || !text.startsWith(head)) return null;
  let body = text.slice(head.length);
  // A failed aggregate is stored with its error appended (modelVisibleText).
  const failedTail = `\n\nError: ${PARALLEL_FAILED}`;
  if (body.endsWith(failedTail)) body = body.slice(0, -failedTail.length);
  const blocks: ParallelBlock[] = [];
  let pos = 0;
  for (let i = 0; i < targets.length; i++) {
    const agent = targets[i]!;
    const marker = [true, false]
      .map((ok) => parallelBlockHeader(agent, ok))
      .find((h) => body.startsWith(h, pos));
    if (!marker) return null;
    const start = pos + marker.length;
    let end = body.length;
    const next = targets[i + 1];
    if (next !== undefined) {
      const candidates = [true, false]
        .map((ok) => body.indexOf(`\n\n${parallelBlockHeader(next, ok)}`, start))
        .filter((n) => n >= 0);
      if (candidates.length === 0) return null;
      end = Math.min(...candidates);
    }
    const raw = body.slice(start, end);
    blocks.push({ agent, text: raw.startsWith('\n') ? raw.slice(1) : raw });
    pos = end + 2;
  }
  return blocks;
}
