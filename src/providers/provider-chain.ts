// The reliable fallback chain: candidates in order, retries with backoff, attribution, safe failure.
import type { ProviderEntry, ReliabilityConfig } from '../config/types.ts';
import { createRedactor, type Logger } from '../core/logger.ts';
import { type Candidate, resolveCandidates } from './candidates.ts';
import { type ClassifiedFailure, classifyFailure, toFailureEvent } from './classify-failure.ts';
import { type FailureEvent, ProviderChainError } from './failure-summary.ts';
import {
  type CallResult,
  callModel,
  hasImages,
  type PreparedRequest,
  prepareRequest,
} from './model-request.ts';
import { keyName, selectCandidates } from './model-selection.ts';
import { tuneForThinking } from './native-thinking.ts';
import { type ChatModel, createChatModel, preloadSdkPackage } from './sdk-model.ts';
import { diagnoseSetup, type FailedAttempt } from './setup-problem.ts';
import { chainToolProtocol, requestToolMode } from './tool-protocol.ts';
import type { ModelProvider, ModelRequest, ModelResponse, ServedBy } from './types.ts';
import { createTextFeed } from './visible-text.ts';
import { acceptsImages } from './vision.ts';

export interface ProviderChainOptions {
  /** `<type>.<alias>` of the agent's model_provider. */
  ref: string;
  agentAlias: string;
  providers: Record<string, ProviderEntry>;
  reliability: ReliabilityConfig;
  env: Record<string, string | undefined>;
  logger: Logger;
  /** Overrides every candidate's temperature (a subagent uses its parent's value). */
  temperature?: number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

interface Attempt {
  candidate: Candidate;
  model: string;
  attempt: number;
  maxAttempts: number;
}

export function createProviderChain(opts: ProviderChainOptions): ModelProvider {
  const logger = opts.logger.child({ component: 'providers', agent: opts.agentAlias });
  const { usable: candidates, skipped } = selectCandidates(
    resolveCandidates(opts.ref, opts.providers, opts.env, logger),
  );
  for (const c of skipped)
    logger.info({ provider: c.entry.ref, key: keyName(c) }, 'model provider has no API key; skipped');
  const first = candidates[0];
  if (first === undefined) throw new Error(`provider "${opts.ref}" has no model configured`);
  const models = new Map<string, Promise<ChatModel>>();
  for (const c of candidates) preloadSdkPackage(c.type);
  const protocol = chainToolProtocol(candidates.map((c) => c.nativeTools));
  const maxAttempts = opts.reliability.provider_retries + 1;
  const redactKeys = createRedactor(candidates.flatMap((c) => (c.apiKey === undefined ? [] : [c.apiKey])));

  const chatModel = (candidate: Candidate, model: string): Promise<ChatModel> => {
    const key = `${candidate.index}\u0000${model}`;
    let m = models.get(key);
    if (m === undefined) {
      m = createChatModel({ ...candidate, model });
      models.set(key, m);
      m.catch(() => models.delete(key)); // the next attempt tries again
    }
    return m;
  };

  /** Resolves with the reply or the classified failure; rejects only when `signal` aborted. */
  const attemptOnce = async (
    a: Attempt,
    prepared: PreparedRequest,
    req: Pick<ModelRequest, 'thinking' | 'defaultTimeoutSecs' | 'onText'>,
    signal: AbortSignal,
  ): Promise<{ ok: true; result: CallResult } | { ok: false; failure: ClassifiedFailure }> => {
    const { entry } = a.candidate;
    const secs =
      entry.timeout_secs !== undefined && entry.timeout_secs > 0
        ? entry.timeout_secs
        : req.defaultTimeoutSecs;
    const timeoutMs = secs !== undefined && secs > 0 ? secs * 1000 : undefined;
    const timer = new AbortController();
    const handle =
      timeoutMs === undefined ? undefined : setTimeout(() => timer.abort(new Error('timeout')), timeoutMs);
    try {
      const tuning = tuneForThinking(
        a.candidate.type,
        {
          temperature: opts.temperature ?? entry.temperature,
          maxOutputTokens:
            entry.max_tokens !== undefined && entry.max_tokens > 0 ? entry.max_tokens : undefined,
        },
        req.thinking,
      );
      const result = await callModel(await chatModel(a.candidate, a.model), prepared, {
        ...tuning,
        signal: AbortSignal.any([signal, timer.signal]),
        onText: req.onText,
      });
      return { ok: true, result };
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      const failure = classifyFailure(err, timer.signal.aborted);
      // Full details go to the operator log only (never into the error the agent sees); the logger
      // redacts the config's secret set, and this also every key of the chain echoed in a body.
      logger.warn(
        redactKeys({
          provider: entry.ref,
          providerType: entry.type,
          model: a.model,
          attempt: a.attempt,
          maxAttempts: a.maxAttempts,
          failureClass: failure.failureClass,
          retryable: failure.retryable,
          status: failure.details.status,
          endpoint: failure.details.url,
          body: failure.details.body,
          error: failure.details.error,
        }),
        'model provider attempt failed',
      );
      return { ok: false, failure };
    } finally {
      if (handle !== undefined) clearTimeout(handle);
    }
  };

  const complete = async (req: ModelRequest, signal: AbortSignal): Promise<ModelResponse> => {
    const mode = requestToolMode(protocol, req);
    const labelOf = (c: Candidate): ServedBy => ({ ...c.label, model: modelOf(c) });
    const modelOf = (c: Candidate): string =>
      c.index === 0 && req.modelOverride ? req.modelOverride : c.model;
    // Images go as image parts only to a candidate that accepts them; another one (a fallback) gets the request
    // without them, and the attachment lines alone describe the files (media.md §1).
    const images = hasImages(req);
    const forms = new Map<boolean, PreparedRequest>();
    const preparedFor = (c: Candidate): PreparedRequest => {
      const vision = images && acceptsImages(c.entry.vision, modelOf(c));
      let p = forms.get(vision);
      if (!p) {
        p = prepareRequest(req, mode, vision);
        forms.set(vision, p);
      }
      return p;
    };
    const events: FailureEvent[] = [];
    const failed: FailedAttempt[] = [];
    const feed =
      req.onText &&
      createTextFeed(req.onText, (err) => logger.warn({ err }, 'model text listener failed; ignored'));
    if (signal.aborted) throw signal.reason;
    for (const candidate of candidates) {
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        if (attempt > 1) await sleep(opts.reliability.provider_backoff_ms * 2 ** (attempt - 2), signal);
        const a: Attempt = { candidate, model: modelOf(candidate), attempt, maxAttempts };
        feed?.restart();
        const outcome = await attemptOnce(
          a,
          preparedFor(candidate),
          { ...req, onText: feed?.report },
          signal,
        );
        if (outcome.ok) {
          const { warnings, ...result } = outcome.result;
          if (warnings.length > 0)
            logger.debug({ provider: candidate.entry.ref, warnings }, 'model provider warnings');
          return {
            ...result,
            requested: labelOf(first),
            served: labelOf(candidate),
            // Any later candidate counts, even one whose labels equal the first (§10.2).
            fallbackUsed: candidate.index > 0,
          };
        }
        events.push(toFailureEvent(outcome.failure, attempt, maxAttempts));
        failed.push({ candidate, model: a.model, failure: outcome.failure });
        // Non-retryable failures (auth, bad request, malformed reply) go straight to the next candidate.
        if (!outcome.failure.retryable) break;
      }
    }
    const setup = diagnoseSetup(failed, skipped);
    logger.warn(
      { provider: opts.ref, events: events.length, setupProblem: setup?.kind },
      'all model providers/models failed',
    );
    throw new ProviderChainError(events, setup);
  };

  return { requested: first.label, toolProtocol: protocol, complete };
}
