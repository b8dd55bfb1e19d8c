// /ui/approvals in real Chromium against a real gateway + worker: a route prompt waits in the ops room. The
// dashboard shows it read-only to every web user, a web peer of the agent included (approvals.md §5: approvals
// are decided only through channel prompts); a hand-made POST to the former decide route changes nothing; the
// ops-room approver's press decides, and the server pushes the card to the audit trail on the open page.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../src/approval/approval-store.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { READ_ONLY_NOTE } from '../../src/web/ops/ops-page-messages.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../helpers/runtime-harness.ts';
import {
  cardIn,
  press,
  replyIn,
  scriptWrites,
  settledCard,
  toldModel,
} from '../integration/approval/approval-helpers.ts';
import { onlyPushed, postFromPage, recordRequests, signIn } from './dashboard-helpers.ts';

const EXTRA = `
[risk_profiles.default.approval_route]
approver_channel = "local.test"
approver_recipient = "ops-room"
timeout_secs = 120

[peer_groups.web_ops]
channel = "web"
agents = ["main"]
external_peers = ["web:alice"]
`;

describe.skipIf(!hasChromium)(
  `dashboard: approvals${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    let h: RuntimeHarness;
    let browser: Browser;
    beforeAll(async () => {
      h = await createRuntimeHarness('dash-approvals', runtimeToml(EXTRA, ['alice', 'opsbob']), {
        ops: {},
      });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('read-only for every web user, a web peer included; the ops-room press decides and the page follows', async () => {
      scriptWrites(h, 'dash1.txt');
      await h.local.inject({ chat: 'dev', text: 'write it', senderId: 'alice' });
      const card = await cardIn(h, 'ops-room');
      const store = createApprovalStore({ redis: h.redis, prefix: h.prefix, logger: createSilentLogger() });
      const [rec] = await store.listPending(1);
      const id = rec!.approval_id;

      const alice = await signIn(browser, h, 'alice');
      const requests = recordRequests(alice.page);
      await alice.page.goto(`${h.opsUrl}/ui/approvals`);
      const aliceCard = alice.page.locator(`article[data-approval="${id}"]`);
      await expect(aliceCard.locator('pre.card-text').textContent()).resolves.toContain('file_write');
      await expect(aliceCard.textContent()).resolves.toContain('dash1.txt');
      await expect(aliceCard.textContent()).resolves.toContain(READ_ONLY_NOTE);
      await expect(aliceCard.getByRole('button').count()).resolves.toBe(0);
      await screenshot(alice.page, 'dashboard-approvals-read-only');
      const refused = await postFromPage(
        alice.page,
        `/ui/approvals/${id}/decide`,
        { answer: 'approve' },
        alice.csrf,
      );
      expect(refused.status).toBe(404);
      expect((await store.get(id))?.status).toBe('pending');

      // The approver answers in the ops room: the run continues and the card there is edited.
      expect(await press(h, card, 'approve', 'opsbob')).toMatchObject({ notice: '✅ Approved' });
      expect(await toldModel(h)).toMatch(/^Wrote 2 bytes to .*dash1\.txt$/);
      await replyIn(h, 'dev', 'done');
      expect(await settledCard(card)).toContain('Approved by opsbob');
      // Live: the card leaves Pending and the audit row appears without a reload.
      const row = alice.page.locator(`table.audit tr[data-approval="${id}"]`);
      await row.waitFor();
      await expect(aliceCard.count()).resolves.toBe(0);
      await expect(row.textContent()).resolves.toContain('opsbob · local.test');
      // Pushed by the server: one stream, no polling (the refused hand-made POST above aside).
      onlyPushed(requests, h.opsUrl!, '/ui/approvals/stream');
      await screenshot(alice.page, 'dashboard-approvals-decided');
      expect(alice.dialogs).toEqual([]);
    });
  },
);
