// Preloaded with `node --import <this file>`: appends the name of every npm package the process loads (import or
// require) to the file named by BATON_RECORD_PACKAGES, one per line, once each. Tests read which libraries a
// `baton` process loaded without touching baton's code.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const out = process.env.BATON_RECORD_PACKAGES;
const seen = new Set<string>();

if (out) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url)?.[1];
      if (name && !seen.has(name)) {
        seen.add(name);
        appendFileSync(out, `${name}\n`);
      }
      return resolved;
    },
  });
}
