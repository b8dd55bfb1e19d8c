// The texts a presser or replier gets when their answer changes nothing (approvals.md §10 lifecycle 7, §11).
import { type Catalog, defaultCatalog } from '../i18n/catalog.ts';

/** `⚠️ This approval request has expired or was already decided.` in English. */
export const latePressText = (catalog: Catalog = defaultCatalog()) =>
  `⚠️ ${catalog.format('approval-late-press')}`;

/** `⚠️ You are not authorized to answer this approval request.` in English. */
export const unauthorisedText = (catalog: Catalog = defaultCatalog()) =>
  `⚠️ ${catalog.format('approval-unauthorised')}`;
