// /ui/approvals in real Chromium against a real gateway + worker: a route prompt waits in the ops room; a web user
// whom no web peer group lists sees it read-only and is refused; an authorised one approves from the dashboard,
// the run continues, the ops-room card is edited, and the audit trail names web:<login>.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unauthorisedText } from '../../src/approval/answer-texts.ts';
import { createApprovalStore } from '../../src/approval/approval-store.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { READ_ONLY_NOTE } from '../../src/web/ops/messages.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../helpers/runtime-harness.ts';
import {
  cardIn,
  replyIn,
  scriptWrites,
  settledCard,
  toldModel,
} from '../integration/approval/approval-helpers.ts';
import { postFromPage, signIn } from './dashboard-helpers.ts';

const EXTRA = `
[risk_profiles.default.approval_route]
approver_channel = "local.test"
approver_recipient = "ops-room"
timeout_secs = 120

[peer_groups.web_ops]
channel = "web"
agents = ["main"]
external_peers = ["alice"]
`;

describe.skipIf(!hasChromium)(
  `dashboard: approvals${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    let h: RuntimeHarness;
    let browser: Browser;
    beforeAll(async () => {
      h = await createRuntimeHarness('dash-approvals', runtimeToml(EXTRA, ['alice', 'opsbob']), {
        ops: { pages: { pollMs: 200 } },
      });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('read-only for an unlisted web user; an authorised one approves and the run continues', async () => {
      scriptWrites(h, 'dash1.txt');
      await h.local.inject({ chat: 'dev', text: 'write it', senderId: 'alice' });
      const card = await cardIn(h, 'ops-room');
      const store = createApprovalStore({ redis: h.redis, prefix: h.prefix, logger: createSilentLogger() });
      const [rec] = await store.listPending(1);
      const id = rec!.approval_id;

      const bob = await signIn(browser, h, 'bob');
      await bob.page.goto(`${h.opsUrl}/ui/approvals`);
      const bobCard = bob.page.locator(`article[data-approval="${id}"]`);
      await expect(bobCard.textContent()).resolves.toContain(READ_ONLY_NOTE);
      await expect(bobCard.getByRole('button').count()).resolves.toBe(0);
      await screenshot(bob.page, 'dashboard-approvals-read-only');
      const refused = await postFromPage(
        bob.page,
        `/ui/approvals/${id}/decide`,
        { answer: 'approve' },
        bob.csrf,
      );
      expect(refused).toEqual({ status: 403, body: { error: unauthorisedText() } });
      expect((await store.get(id))?.status).toBe('pending');

      const alice = await signIn(browser, h, 'alice');
      await alice.page.goto(`${h.opsUrl}/ui/approvals`);
      const aliceCard = alice.page.locator(`article[data-approval="${id}"]`);
      await expect(aliceCard.locator('pre.card-text').textContent()).resolves.toContain('file_write');
      await expect(aliceCard.textContent()).resolves.toContain('dash1.txt');
      await screenshot(alice.page, 'dashboard-approvals-pending');
      await aliceCard.getByRole('button', { name: 'Approve' }).click();
      await alice.page.locator('#flash.ok').waitFor();
      await expect(alice.page.locator('#flash').textContent()).resolves.toBe('✅ Approved');
      expect(alice.dialogs).toEqual(["Approve 'file_write' for agent 'main'?"]);

      // The waiting run continues: the tool ran, the model got its result and answered the chat.
      expect(await toldModel(h)).toMatch(/^Wrote 2 bytes to .*dash1\.txt$/);
      await replyIn(h, 'dev', 'done');
      expect(await settledCard(card)).toContain('Approved by web:alice');
      expect(await store.get(id)).toMatchObject({
        status: 'approved',
        decided_by: { channel: 'web.dashboard', user: 'web:alice' },
      });
      // Live: the card leaves Pending and the audit row appears without a reload.
      await alice.page.locator(`table.audit tr[data-approval="${id}"]`).waitFor();
      await expect(aliceCard.count()).resolves.toBe(0);
      await expect(
        alice.page.locator(`table.audit tr[data-approval="${id}"]`).textContent(),
      ).resolves.toContain('web:alice (web.dashboard)');
      await screenshot(alice.page, 'dashboard-approvals-decided');
      // bob's open page updates too: nothing left to decide.
      await bob.page.locator(`table.audit tr[data-approval="${id}"]`).waitFor();
    });
  },
);
