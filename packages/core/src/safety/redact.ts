/** Environment variable names whose values are secrets. */
const SECRET_NAME =
  /(^|_)(KEY|PASS|PWD|CREDENTIALS?|AUTH)($|_)|TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE/i;
/** Names that match the pattern but hold no secret (the shell's working directories). */
const NOT_SECRET_NAME = new Set(['PWD', 'OLDPWD']);

/** Token formats that are secrets wherever they appear. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g, // Anthropic
  /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, // OpenAI
  /gh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub tokens
  /github_pat_[A-Za-z0-9_]{40,}/g,
  /glpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /xox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key id
  /AIza[0-9A-Za-z_-]{35}/g, // Google API key
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\b(?:npm_[A-Za-z0-9]{36})\b/g,
  /\b(?:hf_[A-Za-z0-9]{30,})\b/g, // Hugging Face
  /\b(?:sk_live|rk_live|pk_live)_[A-Za-z0-9]{16,}/g, // Stripe
  /(?<=\b(?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]{16,}/g,
  /(?<=:\/\/[^\s:/@]+:)[^\s@/]{3,}(?=@)/g, // password in a URL
  /(?<=hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]{8,}/g, // Slack webhook
  /(?<=discord(?:app)?\.com\/api\/webhooks\/)[0-9]+\/[A-Za-z0-9_-]{20,}/g, // Discord webhook
];

export const REDACTED = '[REDACTED]';

/**
 * Collects secret values from an environment: values of variables named like keys, tokens,
 * secrets and passwords (at least 6 characters, so that `PASS=1` does not blank every "1").
 */
export function secretValues(env: NodeJS.ProcessEnv = process.env): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < 6) continue;
    if (SECRET_NAME.test(name) && !NOT_SECRET_NAME.has(name.toUpperCase())) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

export interface Redactor {
  (text: string): string;
}

/** A redactor for the given environment plus extra known secrets (an API key from a config file). */
export function createRedactor(
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly string[] = [],
): Redactor {
  const values = [...new Set([...secretValues(env), ...extra.filter((v) => v.length >= 6)])].sort(
    (a, b) => b.length - a.length,
  );
  return (text: string): string => {
    let out = text;
    for (const value of values) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    }
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
    return out;
  };
}

/** Redacts every string inside a JSON-like value (for reports). */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}
