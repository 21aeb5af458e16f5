// OpenAI-compatible chat completions (`POST {base}/chat/completions`): OpenAI, Azure OpenAI's v1
// endpoint, OpenRouter, Ollama, vLLM, llama.cpp server, LM Studio. Structured output through
// `response_format: json_schema` where the server takes it; where it refuses the field, the schema
// goes into the prompt and the reply is validated by the caller instead.
import { JsonHttpClient, ProviderError, endpoint } from '../../net/http-json.js';
import { type ChatModel, type ChatReply, type ChatRequest, schemaInPrompt } from './chat-model.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

interface ChatCompletion {
  choices?: Array<{ message?: { content?: string | null; refusal?: string | null }; finish_reason?: string }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export class OpenAiChatModel implements ChatModel {
  readonly provider = 'openai';
  private schemaSupported = true;
  /** Reasoning models take `max_completion_tokens` and no `temperature`. */
  private reasoningParams = false;

  constructor(
    private readonly http: JsonHttpClient,
    private readonly baseUrl: string,
    readonly model: string,
    private readonly apiKey: string | undefined,
  ) {}

  async complete(request: ChatRequest): Promise<ChatReply> {
    try {
      return await this.send(request);
    } catch (error) {
      // Servers without structured output reject the field with a 400 that names it.
      if (!(error instanceof ProviderError) || error.status !== 400) throw error;
      if (this.schemaSupported && /response_format|json_schema/i.test(error.message)) {
        this.schemaSupported = false;
        return this.complete(request);
      }
      if (!this.reasoningParams && /max_tokens|max_completion_tokens|temperature/i.test(error.message)) {
        this.reasoningParams = true;
        return this.complete(request);
      }
      throw error;
    }
  }

  private async send(request: ChatRequest): Promise<ChatReply> {
    const url = endpoint(this.baseUrl, 'chat/completions');
    const headers: Record<string, string> = {};
    if (this.apiKey) {
      headers.authorization = `Bearer ${this.apiKey}`;
      // Azure OpenAI authenticates with `api-key`.
      if (url.hostname.endsWith('.azure.com')) headers['api-key'] = this.apiKey;
    }
    const user = this.schemaSupported ? request.user : `${request.user}\n\n${schemaInPrompt(request.schema)}`;
    const { body, call } = await this.http.request({
      provider: this.provider,
      method: 'POST',
      url,
      headers,
      body: {
        model: this.model,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: user },
        ],
        ...(this.reasoningParams ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens, temperature: 0 }),
        ...(this.schemaSupported
          ? { response_format: { type: 'json_schema', json_schema: { name: request.schema.name, strict: true, schema: request.schema.schema } } }
          : {}),
      },
    });
    const completion = body as ChatCompletion;
    const choice = completion.choices?.[0];
    const usage = { input: completion.usage?.prompt_tokens ?? 0, output: completion.usage?.completion_tokens ?? 0 };
    call.tokens = usage;
    if (choice?.message?.refusal) throw new ProviderError(this.provider, `the model refused: ${choice.message.refusal.slice(0, 200)}`, 'malformed', false);
    const text = choice?.message?.content;
    if (typeof text !== 'string') throw new ProviderError(this.provider, 'the reply has no choices[0].message.content', 'malformed', true);
    return { text, usage };
  }
}
