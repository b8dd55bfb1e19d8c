// spawn_subagent's model-visible contract: description, schema and every refusal text (subagents.md).

export const SPAWN_SUBAGENT_DESCRIPTION =
  "Spawn an ephemeral SubAgent that inherits this agent's identity, security policy, and memory allowlist. The SubAgent runs the supplied prompt to completion under the parent's permissions envelope and returns its response. Use for focused subtasks (research lookup, multi-step reasoning, etc.) that should not pollute this agent's main conversation history. Cost-aware: each SubAgent run is a full agent loop and consumes provider tokens.";

export const SPAWN_SUBAGENT_PARAMETERS = {
  type: 'object',
  properties: {
    prompt: {
      type: 'string',
      description:
        "The task or question for the SubAgent. Be specific and self-contained — the SubAgent does not see this conversation's history.",
    },
  },
  required: ['prompt'],
};

export const MISSING_PROMPT = "Missing or empty 'prompt' parameter";
export const DEPTH_CAP = 'spawn_subagent: a subagent may not spawn its own subagents (depth-1 cap)';
export const riskProfileRefusal = (parent: string) =>
  `spawn_subagent: refused — agent '${parent}' risk_profile does not list spawn_subagent in allowed_tools`;
export const spawnFailed = (chain: string) => `subagent spawn failed: ${chain}`;
export const policyEscalation = (violation: string) =>
  `subagent policy override escalates beyond parent: ${violation}`;
export const EMPTY_OUTPUT = 'subagent completed without output';
export const runFailed = (message: string) => `subagent run failed: ${message}`;
export const unresolvablePolicy = (alias: string, err: string) =>
  `could not resolve security policy for agent "${alias}": ${err}`;
