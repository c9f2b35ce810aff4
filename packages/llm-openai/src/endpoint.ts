export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The paths the SDK appends; a baseURL ending in one of them was copied from an endpoint's docs. */
const ENDPOINT_SUFFIX = /\/(chat\/completions|completions|responses|models)$/;
/** A version segment: `/v1`, or `/v1beta` as in Gemini's `/v1beta/openai`. */
const VERSION_SEGMENT = /\/v\d+[a-z]*\d*(\/|$)/i;

/**
 * Why `baseURL` would not work with the SDK, with the value to use instead; undefined when it
 * looks right. The SDK appends `/chat/completions` to it, so the API root must carry its version
 * (`http://localhost:11434/v1`, not `http://localhost:11434`).
 */
export function baseURLProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a URL; use the API root of the server, e.g. "http://127.0.0.1:11434/v1" for Ollama`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `"${value}" is not an http(s) URL; use e.g. "http://127.0.0.1:11434/v1"`;
  const path = url.pathname.replace(/\/+$/, '');
  const endpoint = ENDPOINT_SUFFIX.exec(path);
  if (endpoint) {
    const root = `${url.origin}${path.slice(0, endpoint.index)}`;
    return `"${value}" is an endpoint, not the API root; the SDK appends /${endpoint[1]} itself, so use "${root}"`;
  }
  if (!VERSION_SEGMENT.test(`${path}/`)) {
    return `"${value}" does not end in /v1; the SDK appends /chat/completions to it, so use "${url.origin}${path}/v1"`;
  }
  return undefined;
}

/** The base URL without trailing slashes, so that prompts and messages show one spelling. */
export function normalizeBaseURL(value: string): string {
  return value.replace(/\/+$/, '');
}

/** Is this OpenAI's own API (prices known, a key required), rather than a compatible server? */
export function isOpenAIHost(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}
