// Anthropic Messages (`POST {base}/v1/messages`, `x-api-key`, `anthropic-version`). Structured
// output through a forced tool call whose `input_schema` is the answer schema: the reply's
// `tool_use.input` is the JSON.
import { JsonHttpClient, ProviderError, endpoint } from '../../net/http-json.js';
import { type ChatModel, type ChatReply, type ChatRequest } from './chat-model.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

interface MessagesReply {
  content?: Array<{ type: string; text?: string; name?: string; input?: unknown }>;
  stop_reason?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
}

export class AnthropicMessagesModel implements ChatModel {
  readonly provider = 'anthropic';

  constructor(
    private readonly http: JsonHttpClient,
    private readonly baseUrl: string,
    readonly model: string,
    private readonly apiKey: string | undefined,
  ) {}

  async complete(request: ChatRequest): Promise<ChatReply> {
    const { body, call } = await this.http.request({
      provider: this.provider,
      method: 'POST',
      url: endpoint(this.baseUrl, 'v1/messages'),
      headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(this.apiKey ? { 'x-api-key': this.apiKey } : {}) },
      body: {
        model: this.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: [{ role: 'user', content: request.user }],
        tools: [{ name: request.schema.name, description: 'Return the answer in this structure.', input_schema: request.schema.schema }],
        tool_choice: { type: 'tool', name: request.schema.name },
        temperature: 0,
      },
    });
    const reply = body as MessagesReply;
    const usage = { input: reply.usage?.input_tokens ?? 0, output: reply.usage?.output_tokens ?? 0 };
    call.tokens = usage;
    const tool = reply.content?.find((c) => c.type === 'tool_use' && c.name === request.schema.name);
    if (tool?.input !== undefined) return { text: JSON.stringify(tool.input), usage };
    const text = reply.content?.find((c) => c.type === 'text')?.text;
    if (typeof text === 'string') return { text, usage };
    throw new ProviderError(this.provider, `the reply has no ${request.schema.name} tool call (stop_reason ${reply.stop_reason ?? 'none'})`, 'malformed', true);
  }
}
