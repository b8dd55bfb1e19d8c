// The Fluent message catalog: loads locales/<lang>/*.ftl once and formats catalog entries by key.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FluentBundle, FluentResource } from '@fluent/bundle';

export type CatalogArgs = Record<string, string>;

export interface Catalog {
  /** Formats `key`; throws when the key is missing, so a typo never reaches a model as an empty string. */
  format(key: string, args?: CatalogArgs): string;
}

const LOCALES_DIR = join(import.meta.dirname, 'locales');

/** Builds a catalog for `locale`; `overrides` (FTL text) redefine keys, as an operator override would. */
export function createCatalog(locale = 'en', overrides?: string): Catalog {
  // Isolation marks would change the byte-exact English texts the spec fixes.
  const bundle = new FluentBundle(locale, { useIsolating: false });
  const dir = join(LOCALES_DIR, locale);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.ftl'))
    .sort()) {
    addResource(bundle, readFileSync(join(dir, file), 'utf8'), false);
  }
  if (overrides) addResource(bundle, overrides, true);
  return {
    format(key, args) {
      const message = bundle.getMessage(key);
      if (!message?.value) throw new Error(`i18n: no catalog entry "${key}" for locale ${locale}`);
      const errors: Error[] = [];
      const text = bundle.formatPattern(message.value, args, errors);
      if (errors.length > 0) throw new Error(`i18n: cannot format "${key}": ${errors[0]?.message}`);
      return text;
    },
  };
}

function addResource(bundle: FluentBundle, source: string, allowOverrides: boolean): void {
  const errors = bundle.addResource(new FluentResource(source), { allowOverrides });
  if (errors.length > 0) throw new Error(`i18n: invalid catalog entry: ${errors[0]?.message}`);
}

let english: Catalog | undefined;

/** The process-wide English catalog (baton's source language). */
export function defaultCatalog(): Catalog {
  english ??= createCatalog('en');
  return english;
}
