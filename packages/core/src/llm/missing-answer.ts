/** What a reply held instead of a usable answer call. */
export interface MissingAnswer {
  /** The model that answered. */
  model: string;
  /** How the model was to answer: `propose_fix`, `the StructuredOutput tool`. */
  expected: string;
  /** The reply stopped at the output token limit, or at a content filter. */
  cutOff?: 'length' | 'content-filter' | undefined;
  maxOutputTokens?: number | undefined;
  /** The model refused (possibly without a word). */
  refusal?: string | undefined;
  /** Tools the model called instead of the answer tool. */
  otherCalls?: string[] | undefined;
  /** Plain text it wrote. */
  text: string;
  /** What may be wrong when it answered in plain text (a server without tool calling). */
  plainTextHint?: string | undefined;
  /** Whose content filter stopped it. */
  endpoint?: string | undefined;
}

/** Text on one line, shortened for a reason. */
export function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}...` : flat;
}

/**
 * Why a reply holds no answer, the same for every LLM fixer, in words that say what to change.
 * A cut-off comes first: arguments cut at the token limit are broken JSON, and "not JSON" would
 * hide the cure.
 */
export function missingAnswerReason(m: MissingAnswer): string {
  const who = `the model "${m.model}"`;
  if (m.cutOff === 'length') {
    const limit = m.maxOutputTokens !== undefined ? ` (maxOutputTokens ${m.maxOutputTokens})` : '';
    return `${who} ran out of output tokens${limit} before it finished its answer: raise the fixer option "maxOutputTokens"`;
  }
  if (m.cutOff === 'content-filter')
    return `${who} stopped at the content filter${m.endpoint ? ` of ${m.endpoint}` : ''}: no answer`;
  if (m.refusal !== undefined)
    return `${who} refused to answer${m.refusal.trim() ? `: ${clip(m.refusal, 300)}` : ''}`;
  if (m.otherCalls?.length) return `${who} called ${m.otherCalls.join(', ')} instead of ${m.expected}`;
  const text = clip(m.text);
  return `${who} answered in plain text instead of calling ${m.expected}${m.plainTextHint ? ` (${m.plainTextHint})` : ''}${text ? `: ${text}` : ': the reply was empty'}`;
}
