/** "after 1 retry", "after 2 retries". */
export function afterRetries(n: number): string {
  return `after ${n} retr${n === 1 ? 'y' : 'ies'}`;
}

/**
 * Why a call failed on an error status from the Messages API, for the statuses that mean the same
 * in both modes: a rate limit or a server error that outlasted the retries, or any other status.
 * `detail` is the API's own message, already shortened.
 */
export function statusReason(status: number | undefined, detail: string, retries: number): string {
  if (status === 429)
    return `rate limited by the API (429) ${afterRetries(retries)}: ${detail}; try again later, lower "concurrency", or raise the fixer option "retries"`;
  if (status !== undefined && status >= 500)
    return `the API failed (${status}) ${afterRetries(retries)}: ${detail}`;
  return `the API answered ${status ?? 'an error'}: ${detail}`;
}
