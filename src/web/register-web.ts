// Everything the browser face adds to the gateway's HTTP server, registered once from ops-server.ts.
// Each feature adds its own line here (auth first: its onRequest hook guards every browser path).
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ApprovalMetrics } from '../approval/approval-store.ts';
import type { BatonConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import { registerAssets } from './assets-route.ts';
import { registerWebAuth } from './auth.ts';
import { createOpsPagesDeps, type OpsPagesWiring } from './ops/ops-pages-deps.ts';
import { registerOpsPages } from './ops/register-ops-pages.ts';

export interface WebDeps {
  config: BatonConfig;
  redis: Redis;
  logger: Logger;
  /** Counts dashboard approval decisions like button ones. */
  metrics?: ApprovalMetrics;
  /** Config path, reloadable config and the delegation_policy editor for the operator pages. */
  opsPages?: OpsPagesWiring;
}

export function registerWeb(app: FastifyInstance, deps: WebDeps): void {
  registerWebAuth(app, deps);
  registerAssets(app);
  registerOpsPages(app, createOpsPagesDeps({ ...deps, wiring: deps.opsPages ?? {} }));
}
