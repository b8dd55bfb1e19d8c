// The system prompt of a run, in the section order of delegate.md §9.8.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { utcPeriods } from '../cost/pricing.ts';
import type { ToolSpec } from '../providers/types.ts';

const WORKSPACE_FILES = ['AGENTS.md', 'SOUL.md', 'IDENTITY.md', 'USER.md', 'BOOTSTRAP.md'];

const SAFETY = `## Safety
- Do not reveal secrets, credentials or tokens, even if a tool output contains them.
- Do not run destructive commands unless the user clearly asked for that outcome.
- Tool calls may be refused by policy or by an operator; report refusals honestly and do not try to work around them.`;

const RUNTIME = `## Runtime
You are an agent running inside baton. Tool results arrive as tool messages. When you have enough information, answer the user directly without calling more tools.`;

export interface SystemPromptInput {
  agentAlias: string;
  tools: readonly ToolSpec[];
  /** False when strict tool parsing runs over a text-only chain: no tool list at all (delegate.md §9.6). */
  listTools: boolean;
  workspaceDir: string;
  now?: Date;
  /** Extra sections (e.g. memory context), placed after the runtime section. */
  extra?: readonly string[];
}

/** Workspace files are re-read at most this often: edits show up within seconds, and turns skip the disk. */
const FILE_CACHE_MS = 5000;
const fileCache = new Map<string, { text: string | null; readAt: number }>();

async function readIfExists(path: string): Promise<string | null> {
  const hit = fileCache.get(path);
  if (hit && Date.now() - hit.readAt < FILE_CACHE_MS) return hit.text;
  let text: string | null;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    text = null;
  }
  fileCache.set(path, { text, readAt: Date.now() });
  return text;
}

/** Built prompts, for as long as the workspace files they include are cached: most turns reuse one. */
const promptCache = new Map<string, Built>();
const PROMPT_CACHE_MAX = 500;

/**
 * The last prompt per workspace and what it was built from: a turn's inputs are nearly always the same strings
 * as the last turn's, and comparing them is cheaper than joining every tool description into the cache key.
 */
interface LastPrompt {
  listTools: boolean;
  today: string;
  extra: readonly string[];
  tools: readonly { name: string; description: string }[];
  built: Built;
}
interface Built {
  text: string;
  builtAt: number;
}
const lastByWorkspace = new Map<string, LastPrompt>();

const sameInputs = (last: LastPrompt, input: SystemPromptInput, today: string, extra: readonly string[]) =>
  last.listTools === input.listTools &&
  last.today === today &&
  last.extra.length === extra.length &&
  last.extra.every((s, i) => s === extra[i]) &&
  last.tools.length === input.tools.length &&
  last.tools.every(
    (t, i) => t.name === input.tools[i]?.name && t.description === input.tools[i]?.description,
  );

export async function buildSystemPrompt(input: SystemPromptInput): Promise<string> {
  const today = utcPeriods(input.now ?? new Date()).day;
  const extra = input.extra ?? [];
  const last = lastByWorkspace.get(input.workspaceDir);
  const fresh = (b: Built) => Date.now() - b.builtAt < FILE_CACHE_MS;
  if (last && fresh(last.built) && sameInputs(last, input, today, extra)) return last.built.text;
  let key = `${input.workspaceDir}\u0000${input.listTools}\u0000${today}\u0000${extra.join('\u0001')}`;
  for (const t of input.tools) key += `\u0000${t.name}\u0001${t.description}`;
  let built = promptCache.get(key);
  if (!built || !fresh(built)) {
    built = { text: await composeSystemPrompt(input, today), builtAt: Date.now() };
    if (promptCache.size >= PROMPT_CACHE_MAX) promptCache.clear();
    promptCache.set(key, built);
  }
  if (lastByWorkspace.size >= PROMPT_CACHE_MAX) lastByWorkspace.clear();
  const tools = input.tools.map((t) => ({ name: t.name, description: t.description }));
  lastByWorkspace.set(input.workspaceDir, {
    listTools: input.listTools,
    today,
    extra: [...extra],
    tools,
    built,
  });
  return built.text;
}

async function composeSystemPrompt(input: SystemPromptInput, today: string): Promise<string> {
  const sections: string[] = [];
  if (input.listTools && input.tools.length > 0) {
    sections.push(`## Tools\n${input.tools.map((t) => `- ${t.name}: ${t.description}`).join('\n')}`);
  }
  sections.push(SAFETY);
  if (input.tools.some((t) => t.name === 'shell')) {
    sections.push(
      '## Shell\nCommands run without a shell (POSIX argument vector): no pipes, redirections or `&&`. Run one program per call.',
    );
  }
  sections.push(`## Workspace\nYour workspace directory is ${input.workspaceDir}`);
  sections.push(RUNTIME);
  sections.push(...(input.extra ?? []));
  sections.push(`## CRITICAL CONTEXT: CURRENT DATE\nToday is ${today}.`);
  for (const name of WORKSPACE_FILES) {
    const text = await readIfExists(join(input.workspaceDir, name));
    if (text?.trim()) sections.push(`## ${name}\n${text.trim()}`);
  }
  return sections.join('\n\n');
}
