import { bufferedFetch } from '@suture/core/llm';
import OpenAI from 'openai';

export interface ClientSettings {
  baseURL: string;
  apiKey: string;
  timeoutMs: number;
  retries: number;
}

export function createClient(s: ClientSettings): OpenAI {
  return new OpenAI({
    apiKey: s.apiKey,
    baseURL: s.baseURL,
    timeout: s.timeoutMs,
    maxRetries: s.retries,
    fetch: bufferedFetch,
  });
}
