// The chat-completions request body of baton's OpenAI-compatible client, field for field and in the key order
// that @ai-sdk/openai-compatible 2.x wrote it (its getArgs, convertToOpenAICompatibleChatMessages and
// prepareTools), so a provider sees the same request as before; compatible-chat.test.ts compares the two.
import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { convertToBase64, secureJsonParse, stringifyWithBigIntAndCycles } from '@ai-sdk/provider-utils';
import type { ModelCallOptions, SdkPrompt, SdkTool } from './sdk-model.ts';

type Metadata = Record<string, unknown>;
type WithOptions = { providerOptions?: Record<string, Metadata> | undefined };

/** A part's or message's own `openaiCompatible` options, spread into its wire object. */
const metadataOf = (o: WithOptions): Metadata => o.providerOptions?.openaiCompatible ?? {};

function serializeArguments(input: unknown): string {
  if (typeof input === 'string') {
    try {
      secureJsonParse(input);
      return input;
    } catch {
      return JSON.stringify(input);
    }
  }
  return stringifyWithBigIntAndCycles(input);
}

type UserPart = Extract<SdkPrompt[number], { role: 'user' }>['content'][number];

function userPart(part: UserPart): Metadata {
  const meta = metadataOf(part);
  if (part.type === 'text') return { type: 'text', text: part.text, ...meta };
  if (part.mediaType.startsWith('image/')) {
    const mediaType = part.mediaType === 'image/*' ? 'image/jpeg' : part.mediaType;
    const url =
      part.data instanceof URL
        ? part.data.toString()
        : `data:${mediaType};base64,${convertToBase64(part.data)}`;
    return { type: 'image_url', image_url: { url }, ...meta };
  }
  // baton sends images only (model-prompt.ts); other files were never part of its prompts.
  throw new UnsupportedFunctionalityError({ functionality: `file part media type ${part.mediaType}` });
}

type AssistantContent = Extract<SdkPrompt[number], { role: 'assistant' }>['content'];

function assistantMessage(content: AssistantContent, meta: Metadata): Metadata {
  let text = '';
  let reasoning = '';
  const toolCalls: Metadata[] = [];
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') reasoning += part.text;
    else if (part.type === 'tool-call') {
      const signature = (part.providerOptions?.google as Metadata | undefined)?.thoughtSignature;
      toolCalls.push({
        id: part.toolCallId,
        type: 'function',
        function: { name: part.toolName, arguments: serializeArguments(part.input) },
        ...metadataOf(part),
        ...(signature ? { extra_content: { google: { thought_signature: String(signature) } } } : {}),
      });
    }
  }
  return {
    role: 'assistant',
    content: toolCalls.length > 0 ? text || null : text,
    ...(reasoning.length > 0 ? { reasoning_content: reasoning } : {}),
    tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
    ...meta,
  };
}

type ToolContent = Extract<SdkPrompt[number], { role: 'tool' }>['content'];

function toolMessages(content: ToolContent): Metadata[] {
  const out: Metadata[] = [];
  for (const part of content) {
    if (part.type === 'tool-approval-response') continue;
    const { output } = part;
    let value: unknown;
    switch (output.type) {
      case 'text':
      case 'error-text':
        value = output.value;
        break;
      case 'execution-denied':
        value = output.reason ?? 'Tool call execution denied.';
        break;
      default:
        value = stringifyWithBigIntAndCycles(output.value);
    }
    out.push({ role: 'tool', tool_call_id: part.toolCallId, content: value, ...metadataOf(part) });
  }
  return out;
}

export function chatMessages(prompt: SdkPrompt): Metadata[] {
  const messages: Metadata[] = [];
  for (const message of prompt) {
    const meta = metadataOf(message);
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content, ...meta });
        break;
      case 'user': {
        const [only] = message.content;
        if (message.content.length === 1 && only?.type === 'text') {
          messages.push({ role: 'user', content: only.text, ...metadataOf(only) });
        } else messages.push({ role: 'user', content: message.content.map(userPart), ...meta });
        break;
      }
      case 'assistant':
        messages.push(assistantMessage(message.content, meta));
        break;
      case 'tool':
        messages.push(...toolMessages(message.content));
        break;
    }
  }
  return messages;
}

function wireTools(tools: readonly SdkTool[] | undefined): Metadata[] | undefined {
  if (!tools?.length) return undefined;
  return tools.flatMap(
    (tool) =>
      tool.type === 'function'
        ? [
            {
              type: 'function',
              function: {
                name: tool.name,
                description: tool.description,
                parameters: tool.inputSchema,
                ...(tool.strict != null ? { strict: tool.strict } : {}),
              },
            },
          ]
        : [], // a provider-defined tool: the SDK only warned (baton offers function tools only)
  );
}

function wireToolChoice(choice: ModelCallOptions['toolChoice']): unknown {
  if (choice === undefined) return undefined;
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.toolName } };
  return choice.type;
}

/** The body of a streamed chat completion, usage included (baton's cost ledger needs it). */
export function chatRequestBody(modelId: string, options: ModelCallOptions): Record<string, unknown> {
  const tools = wireTools(options.tools);
  const effort = (options.providerOptions?.openaiCompatible as Metadata | undefined)?.reasoningEffort;
  return {
    model: modelId,
    max_tokens: options.maxOutputTokens,
    temperature: options.temperature,
    ...(effort !== undefined ? { reasoning_effort: effort } : {}),
    messages: chatMessages(options.prompt),
    tools,
    tool_choice: tools === undefined ? undefined : wireToolChoice(options.toolChoice),
    stream: true,
    stream_options: { include_usage: true },
  };
}
