import type { Attempt } from '@suture/core';
import { cost, count, duration, plural } from '../format.js';
import { Badge } from './badge.js';
import { DiffView } from './diff-view.js';

function Validation({ attempt }: { attempt: Attempt }) {
  const v = attempt.validation;
  if (!v) return null;
  return (
    <div class={`validation ${v.passed ? 'validation-passed' : 'validation-failed'}`}>
      <strong>Validation:</strong> {v.passed ? 'the failing tests pass' : 'tests still fail'}
      {v.durationMs !== undefined ? ` (${duration(v.durationMs)})` : ''}
      {v.command ? (
        <>
          {' '}
          <code class="command">{v.command}</code>
        </>
      ) : null}
      {v.stillFailing.length > 0 ? (
        <ul>
          {v.stillFailing.map((t) => (
            <li key={t.id}>
              <code>{t.id}</code>
              {t.message ? `: ${t.message}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {v.error ? <p>{v.error}</p> : null}
    </div>
  );
}

function UsageLine({ attempt }: { attempt: Attempt }) {
  const u = attempt.usage;
  if (!u) return null;
  const tokens = (u.inputTokens ?? 0) + (u.outputTokens ?? 0);
  return (
    <span class="usage">
      {u.model ? `${u.model} · ` : ''}
      {count(u.inputTokens ?? 0)} in / {count(u.outputTokens ?? 0)} out tokens
      {tokens > 0 || u.costUsd ? ` · ${cost(u.costUsd ?? 0)}` : ''}
    </span>
  );
}

/** One attempt of the timeline: who proposed what, what the engine said, what the re-run said. */
export function AttemptItem({ attempt, failureTitle }: { attempt: Attempt; failureTitle: string }) {
  return (
    <li class={`attempt attempt-${attempt.verdict}`} data-verdict={attempt.verdict}>
      <div class="attempt-head">
        <span class="attempt-no">Attempt {attempt.attempt}</span>
        <span class="fixer">{attempt.fixer}</span>
        <Badge value={attempt.verdict} />
        {attempt.expectationChanged ? (
          <Badge value="expectation-changed" label="expectation changed" />
        ) : null}
        <span class="took">{duration(attempt.durationMs)}</span>
        <UsageLine attempt={attempt} />
      </div>
      {attempt.rationale ? <p class="rationale">{attempt.rationale}</p> : null}
      {attempt.reason ? <pre class="reason">{attempt.reason}</pre> : null}
      {attempt.edits.length > 0 && !attempt.diff ? (
        <p>
          {plural(attempt.edits.length, 'edit')}: {attempt.edits.map((e) => e.file).join(', ')}
        </p>
      ) : null}
      <Validation attempt={attempt} />
      {attempt.diff ? (
        <DiffView diff={attempt.diff} label={`Diff of attempt ${attempt.attempt} on ${failureTitle}`} />
      ) : null}
    </li>
  );
}
