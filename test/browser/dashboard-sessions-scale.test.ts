// The dashboard at scale in real Chromium: 1,000 sessions and a 10,000-message transcript are served one page at
// a time (sizes and counts asserted, not times; `npm run bench` times them).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/core/logger.ts';
import { createAbortBus } from '../../src/fleet/abort-bus.ts';
import { createRunningTurns } from '../../src/fleet/running-turns.ts';
import { createSessionAbort } from '../../src/fleet/session-abort.ts';
import { transcriptUrl } from '../../src/web/sessions/session-url.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { type DashboardServer, startDashboard } from '../helpers/dashboard-server.ts';
import { spaceOf } from '../helpers/key-space.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { longHistory, seedHistory, seedSessions } from '../helpers/transcript-seed.ts';

const LONG = 'local.test:long:';
const redis = testRedis();
const subscriber = testRedis();
const prefix = uniquePrefix('dash-scale');
let dash: DashboardServer;
let browser: Browser;
let page: Page;

describe.skipIf(!hasChromium)(
  `dashboard at scale in Chromium${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    beforeAll(async () => {
      const bus = createAbortBus(redis, subscriber, prefix, createSilentLogger());
      dash = await startDashboard({
        redis,
        prefix,
        abortSession: createSessionAbort(createRunningTurns(redis, spaceOf(prefix)), bus),
      });
      await seedSessions(redis, spaceOf(prefix), 1000);
      await seedHistory(redis, spaceOf(prefix), 'main', LONG, longHistory(10_000));
      browser = await launchBrowser();
      page = await browser.newPage();
    });
    afterAll(async () => {
      await browser?.close();
      await dash?.close();
      await deletePrefix(redis, prefix);
      await redis.quit();
      subscriber.disconnect();
    });

    it('lists 1,000 sessions 50 to a page, with older pages behind a link', async () => {
      const res = await page.goto(`${dash.url}/`);
      expect((await res?.body())?.length).toBeLessThan(120_000);
      expect(await page.locator('tr.session').count()).toBe(50);
      expect(await page.locator('.summary').textContent()).toBe(
        'Showing 1–50 of 1001 conversations, most recent first.',
      );
      await screenshot(page, 'dashboard-sessions-1000');
      await page.locator('a[rel="next"]').click();
      await page.waitForURL('**/?offset=50');
      expect(await page.locator('tr.session').count()).toBe(50);
      expect(await page.locator('.summary').textContent()).toContain('Showing 51–100 of 1001');
    });

    it('shows a 10,000-message transcript one page at a time, newest first', async () => {
      const res = await page.goto(`${dash.url}${transcriptUrl('main', LONG)}`);
      expect((await res?.body())?.length).toBeLessThan(200_000);
      expect(await page.locator('.range').textContent()).toBe(
        'Messages 9951–10000 of 10000 (newest page first).',
      );
      const indexes = await page
        .locator('.transcript [data-index]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-index'))));
      expect(Math.min(...indexes)).toBe(9950);
      expect(Math.max(...indexes)).toBe(9999);
      expect(await page.locator('.card.delegation').count()).toBeGreaterThan(0);
      await screenshot(page, 'dashboard-transcript-10000');
      await page.locator('a.older').first().click();
      await page.waitForURL('**?before=9950');
      expect(await page.locator('.range').textContent()).toBe(
        'Messages 9901–9950 of 10000 (newest page first).',
      );
      await page.locator('a.newer').first().click();
      await page.waitForURL((u) => !u.search.includes('before'));
      expect(await page.locator('.range').textContent()).toContain('Messages 9951–10000');
    });
  },
);
