// A turn's live view in its chat (live.md §2, §3): watches the turn's run events in this process and decides
// when the preview of the answer and the progress message are shown, under one edit budget per chat. What it
// shows goes out through `LiveOutput` (the channel's outbox); nothing here can slow or fail the turn.
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { NewRunEvent, RunEvent, RunEventSink } from '../run-contract/run-events.ts';
import { buildRunTree } from '../run-contract/run-tree.ts';
import { type ProgressMode, progressSummary, progressText } from './progress-text.ts';

export interface PresenterSettings {
  streaming: 'partial' | 'off';
  streamAfterMs: number;
  /** Least time between two shows in the chat; 0: as fast as the previous one leaves. */
  intervalMs: number;
  progress: ProgressMode | 'off';
  progressAfterMs: number;
}

export type LiveSlotName = 'preview' | 'progress';

export interface LiveOutput {
  /** Queues a show of a slot; false when skipped because the previous show has not left yet. */
  show(slot: LiveSlotName, text: string, last: boolean): Promise<boolean>;
}

export interface TurnPresenter {
  /** Stops watching; the progress message becomes its summary (the answer replaces the preview: settle-turn). */
  finish(): Promise<void>;
}

/** A preview needs this much text (live.md §2 step 1): a few words are not worth a message and an edit. */
const MIN_PREVIEW_CHARS = 20;
/** Without new events, the progress message's elapsed time is refreshed this often. */
const PROGRESS_REFRESH_MS = 5000;
/** Shown in place of text the model replaced with tool calls (§2 step 4): a message cannot be empty. */
const PREVIEW_PLACEHOLDER = '…';

export interface PresenterOptions {
  root: string;
  origin: { channel: string; chat: string };
  settings: PresenterSettings;
  output: LiveOutput;
  events: RunEventSink;
  logger: Pick<Logger, 'debug'>;
}

export function startTurnPresenter(opts: PresenterOptions): TurnPresenter {
  const { root, settings: s, output } = opts;
  const startedAt = Date.now();
  const events: RunEvent[] = [];
  // The root run's current answer step.
  let stepText = '';
  let stepTextSince: number | null = null;
  let stepHasTools = false;
  let iteration = 0;
  let hasWork = false;
  let progressDirty = false;

  const onEvent = (e: NewRunEvent) => {
    if (e.type === 'answer_delta') {
      if (e.run_id !== root || e.iteration !== iteration) return;
      stepText = e.restart ? e.delta : stepText + e.delta;
      if (stepText !== '' && stepTextSince === null) stepTextSince = e.at;
      return;
    }
    events.push({ ...e, seq: events.length + 1 });
    progressDirty = true;
    if (e.run_id === root && e.type === 'model_request') {
      iteration = e.iteration;
      stepText = '';
      stepTextSince = null;
      stepHasTools = false;
    }
    if (e.type === 'tool_started') {
      hasWork = true;
      if (e.run_id === root) stepHasTools = true;
    }
    if (e.type === 'run_started' && e.run_id !== root) hasWork = true;
  };
  const unwatch = opts.events.watch(root, onEvent);

  const shown: Record<LiveSlotName, string | null> = { preview: null, progress: null };
  let lastShowAt = 0;
  let lastSlot: LiveSlotName | null = null;
  let lastProgressAt = 0;

  const rootNode = () => buildRunTree(events).find((n) => n.runId === root) ?? null;

  function previewWanted(now: number): string | null {
    if (s.streaming === 'off') return null;
    if (shown.preview === null) {
      const ready =
        !stepHasTools &&
        stepText.trim().length >= MIN_PREVIEW_CHARS &&
        stepTextSince !== null &&
        now - stepTextSince >= s.streamAfterMs;
      return ready ? stepText : null;
    }
    const text = stepHasTools || stepText.trim() === '' ? PREVIEW_PLACEHOLDER : stepText;
    return text === shown.preview ? null : text;
  }

  function progressWanted(now: number): string | null {
    if (s.progress === 'off' || !hasWork || now - startedAt < s.progressAfterMs) return null;
    if (shown.progress !== null && !progressDirty && now - lastProgressAt < PROGRESS_REFRESH_MS) return null;
    const node = rootNode();
    if (!node) return null;
    const text = progressText(node, s.progress, opts.origin, now);
    return text === shown.progress ? null : text;
  }

  async function tick(): Promise<void> {
    const now = Date.now();
    if (now - lastShowAt < s.intervalMs) return;
    const wants: [LiveSlotName, string][] = [];
    const preview = previewWanted(now);
    if (preview !== null) wants.push(['preview', preview]);
    const progress = progressWanted(now);
    if (progress !== null) wants.push(['progress', progress]);
    if (wants.length === 0) return;
    // One budget for both (live.md §3): they take turns when both have something new.
    const [slot, text] = wants.find(([w]) => w !== lastSlot) ?? wants[0]!;
    if (!(await output.show(slot, text, false))) return;
    shown[slot] = text;
    lastShowAt = now;
    lastSlot = slot;
    if (slot === 'progress') {
      progressDirty = false;
      lastProgressAt = now;
    }
  }

  let finished = false;
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> = Promise.resolve();
  const tickMs = s.intervalMs > 0 ? Math.min(250, s.intervalMs) : 100;
  const loop = () => {
    timer = null;
    ticking = tick()
      .catch((err: unknown) => opts.logger.debug({ err: errorMessage(err) }, 'live view not updated'))
      .then(() => {
        if (!finished) schedule(tickMs);
      });
  };
  const schedule = (ms: number) => {
    timer = setTimeout(loop, ms);
    timer.unref();
  };
  const waits = [
    ...(s.streaming === 'off' ? [] : [s.streamAfterMs]),
    ...(s.progress === 'off' ? [] : [s.progressAfterMs]),
  ];
  // A quick turn ends before the first tick: it costs one timer and no Redis call.
  if (waits.length > 0) schedule(Math.min(...waits));

  return {
    async finish() {
      finished = true;
      if (timer) clearTimeout(timer);
      await ticking;
      unwatch();
      if (shown.progress !== null) {
        const node = rootNode();
        if (node) {
          await output
            .show('progress', progressSummary(node, Date.now() - startedAt), true)
            .catch((err: unknown) =>
              opts.logger.debug({ err: errorMessage(err) }, 'progress summary not queued'),
            );
        }
      }
    },
  };
}
