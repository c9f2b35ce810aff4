/** What a masked secret reads as, in every report, log and prompt. */
export const REDACTED = '[REDACTED]';

/** Values that are not secrets even under a secret name: placeholders, references, booleans, plain URLs. */
export function looksLikeSecretValue(value: string): boolean {
  if (value.length < 4 || value.includes(REDACTED)) return false;
  if (/^(\$|%\(|\{\{|<.*>$|null$|none$|true$|false$|undefined$)/i.test(value)) return false;
  return !/^https?:\/\/[^@\s]*$/.test(value);
}

/**
 * Whether a value found under a secret name is specific enough to be masked wherever it appears
 * later on its own: `hunter2` is, `changeme` or `password` are not (they are words that test names
 * and messages hold too), nor are paths and phrases.
 */
export function learnableSecret(value: string): boolean {
  if (value.length < 6 || /\s/.test(value) || !looksLikeSecretValue(value)) return false;
  if (/^(\.{0,2}\/|~\/)/.test(value)) return false;
  return /[^A-Za-z]/.test(value) || value.length >= 12;
}
