import type { FixRequest } from '@suture/core';

/**
 * The name a JavaScript or TypeScript failure says is not defined (`ReferenceError: x is not
 * defined`, `Cannot find name 'x'`): the one case the script hints handle. Read without TypeScript,
 * so a failure of another kind never loads it.
 */
export function undefinedName(request: FixRequest): string | undefined {
  const text = `${request.failure.title}\n${request.failure.evidence}`;
  return /ReferenceError: (\w+) is not defined/.exec(text)?.[1] ?? /Cannot find name '(\w+)'/.exec(text)?.[1];
}
