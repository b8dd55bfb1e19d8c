// A native tool call's input text as the arguments baton hands on, parsed as the AI SDK's streamText parsed it.

// The SDK parses with secure-json-parse: a `__proto__` key, or a `constructor` object with a `prototype`,
// makes the text unparseable. These are its two pre-checks, so clean text costs one JSON.parse.
const SUSPECT_PROTO =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;
const SUSPECT_CONSTRUCTOR =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;

const own = (o: object, key: string): boolean => Object.hasOwn(o, key);

function hasForbiddenKey(root: object): boolean {
  let next: object[] = [root];
  while (next.length > 0) {
    const nodes = next;
    next = [];
    for (const node of nodes) {
      if (own(node, '__proto__')) return true;
      const ctor = own(node, 'constructor') ? (node as { constructor: unknown }).constructor : undefined;
      if (ctor !== null && typeof ctor === 'object' && own(ctor, 'prototype')) return true;
      for (const value of Object.values(node)) {
        if (value !== null && typeof value === 'object') next.push(value);
      }
    }
  }
  return false;
}

/** The parsed JSON, or `undefined` when the text does not parse (or parses into a forbidden shape). */
function parseJson(text: string): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return { value };
  if (!SUSPECT_PROTO.test(text) && !SUSPECT_CONSTRUCTOR.test(text)) return { value };
  return hasForbiddenKey(value) ? undefined : { value };
}

/**
 * The arguments of a call to `offered` (a tool of the request) or another name: empty input of an offered
 * tool is `{}`; JSON is parsed (tool schemas are not checked, as with the SDK's jsonSchema); input that does not
 * parse stays the raw string, so the agent loop can tell the model its call was malformed.
 */
export function toolInput(input: string, offered: boolean): unknown {
  if (offered && input.trim() === '') return {};
  const parsed = parseJson(input);
  return parsed === undefined ? input : parsed.value;
}
