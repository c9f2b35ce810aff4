import type { FixRequest } from '@suture/core';

/**
 * The conversation an attempt belongs to: one per failure group of a project. A different
 * `failure.id` is a different root cause and starts afresh, so one failure's dead ends do not
 * bias the next.
 */
export function conversationKey(request: FixRequest): string {
  return `${request.project.name}\u0000${request.failure.id}`;
}
