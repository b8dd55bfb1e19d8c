// /ui/tasks in real Chromium against a real gateway + worker on real Redis with the fake model: a background
// delegation shows up running with its progress, Cancel (confirmed) cancels it through the cancel_task path, and
// the status change is pushed by the server over the page's one stream (no polling request).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDelegateTasks } from '../../src/delegation/delegate-tasks.ts';
import { CANCELLED_BY_USER, cancelledRunning } from '../../src/tools/delegate/delegate-messages.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, LOCAL_PEERS, type RuntimeHarness } from '../helpers/runtime-harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { onlyPushed, recordRequests, signIn } from './dashboard-helpers.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[providers.models.custom.slow]
uri = "\${MODEL_URI}"
model = "slow-model"

[reliability]
provider_retries = 0

[risk_profiles.default]

[risk_profiles.ops]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate"]

[runtime_profiles.long]
delegation_timeout_secs = 120

[agents.main]
model_provider = "custom.fake"
risk_profile = "ops"

[agents.writer]
model_provider = "custom.slow"
risk_profile = "ops"
runtime_profile = "long"
${LOCAL_PEERS}`;

describe.skipIf(!hasChromium)(
  `dashboard: background tasks${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    let h: RuntimeHarness;
    let browser: Browser;
    beforeAll(async () => {
      h = await createRuntimeHarness('dash-tasks', TOML, { ops: {} });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('shows a running background task with its progress; Cancel (confirmed) cancels it and the page updates', async () => {
      // The writer never answers within the test: only the cancel ends it.
      h.server.script([{ delayMs: 60_000, text: 'too late' }], { model: 'slow-model' });
      h.server.script(
        [
          {
            toolCalls: [
              {
                id: 'call_bg1',
                name: 'delegate',
                arguments: { agent: 'writer', prompt: 'draft <b>it</b>', background: true },
              },
            ],
          },
          { text: 'started' },
        ],
        { model: 'fake-model' },
      );
      await h.local.inject({ chat: 'dev', text: 'go', senderId: 'alice' });
      const tasks = createDelegateTasks(h.redis, h.prefix);
      let id = '';
      await waitFor(
        async () => {
          id = (await tasks.inFlight())[0] ?? '';
          return id !== '' && (await tasks.get(id))?.progress !== null;
        },
        20_000,
        'the background task running with progress',
      );

      const { page, dialogs } = await signIn(browser, h, 'alice');
      const requests = recordRequests(page);
      await page.goto(`${h.opsUrl}/ui/tasks`);
      const row = page.locator(`tr[data-task="${id}"]`);
      await row.locator('[data-status="running"]').waitFor();
      await expect(row.textContent()).resolves.toContain('call_bg1');
      await expect(row.textContent()).resolves.toContain('main → writer');
      await row.locator('dl.progress').waitFor();
      await screenshot(page, 'dashboard-tasks-running');

      await row.getByRole('button', { name: 'Cancel' }).click();
      await row.locator('[data-status="cancelled"]').waitFor({ timeout: 20_000 });
      expect(dialogs).toEqual([`Cancel background task ${id} (agent 'writer')?`]);
      await expect(page.locator('#flash').textContent()).resolves.toBe(cancelledRunning(id));
      await expect(row.textContent()).resolves.toContain(CANCELLED_BY_USER);
      await expect(row.getByRole('button', { name: 'Cancel' }).count()).resolves.toBe(0);
      // The worker's run was aborted: the writer's model request was dropped by the client.
      await waitFor(
        () => h.server.requests.some((r) => r.body.model === 'slow-model' && r.clientClosed === true),
        20_000,
        'the writer request aborted',
      );
      expect((await tasks.get(id))?.status).toBe('cancelled');
      onlyPushed(requests, h.opsUrl!, '/ui/tasks/stream');
      await screenshot(page, 'dashboard-tasks-cancelled');
    });

    it('shows a task finishing on its own while the page is open (pushed), its output as text', async () => {
      h.server.script([{ delayMs: 5000, text: 'draft <i>done</i>' }], { model: 'slow-model' });
      h.server.script(
        [
          {
            toolCalls: [
              {
                id: 'call_bg2',
                name: 'delegate',
                arguments: { agent: 'writer', prompt: 'again', background: true },
              },
            ],
          },
          { text: 'started' },
        ],
        { model: 'fake-model' },
      );
      const tasks = createDelegateTasks(h.redis, h.prefix);
      const before = new Set((await tasks.listForAlias('main')).map((t) => t.task_id));
      await h.local.inject({ chat: 'dev', text: 'go again', senderId: 'alice' });
      let id = '';
      await waitFor(
        async () => {
          id = (await tasks.inFlight()).find((t) => !before.has(t)) ?? '';
          return id !== '';
        },
        20_000,
        'the second background task',
      );
      const { page } = await signIn(browser, h, 'alice');
      const requests = recordRequests(page);
      await page.goto(`${h.opsUrl}/ui/tasks`);
      const row = page.locator(`tr[data-task="${id}"]`);
      await row.locator('[data-status="running"]').waitFor();
      await row.locator('[data-status="completed"]').waitFor({ timeout: 20_000 });
      onlyPushed(requests, h.opsUrl!, '/ui/tasks/stream');
      await expect(row.locator('.result').textContent()).resolves.toContain('draft <i>done</i>');
      await expect(row.locator('.result i').count()).resolves.toBe(0);
      await screenshot(page, 'dashboard-tasks-completed');
    });
  },
);
