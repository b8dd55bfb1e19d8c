// Everything the browser face adds to the gateway's HTTP server, registered once from ops-server.ts.
// Each feature adds its own line here (auth first: its onRequest hook guards every browser path).
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { BatonConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import { registerAssets } from './assets-route.ts';
import { registerWebAuth } from './auth.ts';

export interface WebDeps {
  config: BatonConfig;
  redis: Redis;
  logger: Logger;
}

export function registerWeb(app: FastifyInstance, deps: WebDeps): void {
  registerWebAuth(app, deps);
  registerAssets(app);
}
