// A chat model behind one small interface: a system prompt, one user message, a JSON schema the
// reply must follow. Each wire protocol (OpenAI-compatible chat completions, Anthropic Messages)
// implements it; everything above sees only JSON text and token counts.

export interface JsonSchema {
  name: string;
  schema: Record<string, unknown>;
}

/**
 * The schema said in words, for a model that takes no response format (a server that refuses
 * OpenAI's `response_format`, the Copilot CLI): its reply is validated and repaired by the caller.
 */
export const schemaInPrompt = (schema: JsonSchema): string =>
  `Reply with one JSON object only, no prose, matching this JSON schema:\n${JSON.stringify(schema.schema)}`;

export interface ChatRequest {
  system: string;
  user: string;
  schema: JsonSchema;
  maxTokens: number;
}

export interface ChatReply {
  /** The reply's JSON, as text (validated by the caller). */
  text: string;
  usage: { input: number; output: number };
}

export interface ChatModel {
  readonly provider: string;
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatReply>;
}
