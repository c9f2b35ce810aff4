import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { UsageSchema, type Usage } from '../api/contracts/fix.js';
import { FixerError } from '../api/errors.js';
import type { FixerContext } from '../api/plugin.js';
import { redactDeep, type Redactor } from '../safety/redact.js';
import type { LlmTransport, TransportCall, TransportReply } from './llm-fixer.js';
import type { RenderedPrompt } from './prompt.js';

export const CassetteModeSchema = z.enum(['record', 'replay', 'auto']);
export type CassetteMode = z.infer<typeof CassetteModeSchema>;

/** The `cassette` option of every LLM fixer. */
export const CassetteOptionSchema = z
  .union([
    z.string().min(1),
    z
      .object({
        path: z.string().min(1),
        mode: CassetteModeSchema.default('auto'),
      })
      .strict(),
  ])
  .describe(
    'Record and replay answers: a folder (relative to the config file) of readable, redacted request files, or { path, mode }: record (always call the model and keep the answer), replay (never call the model; a request not recorded fails), auto (replay what is recorded, record the rest). $SUTURE_CASSETTE_MODE overrides the mode',
  );
export type CassetteOption = z.input<typeof CassetteOptionSchema>;

export interface Cassette {
  /** Absolute folder of the request files. */
  dir: string;
  mode: CassetteMode;
}

/** The cassette of a fixer's options, its folder resolved against the config file's. */
export function resolveCassette(
  option: CassetteOption | undefined,
  configDir: string,
  env: NodeJS.ProcessEnv,
): Cassette | undefined {
  if (option === undefined) return undefined;
  const { path, mode } = typeof option === 'string' ? { path: option, mode: 'auto' as const } : option;
  const override = env.SUTURE_CASSETTE_MODE?.trim();
  if (override && !CassetteModeSchema.safeParse(override).success)
    throw new Error(
      `SUTURE_CASSETTE_MODE=${override} is not a cassette mode; use record, replay or auto, or unset it`,
    );
  return {
    dir: isAbsolute(path) ? path : resolve(configDir, path),
    mode: (override as CassetteMode | undefined) || (mode ?? 'auto'),
  };
}

/** A conversation on tape: the key of its last request, and the transport's own state when it was live. */
export interface Taped<S> {
  key: string;
  inner: S | undefined;
}

const RecordSchema = z.object({
  key: z.string(),
  fixer: z.string(),
  model: z.string(),
  failure: z.string(),
  attempt: z.number(),
  request: z.object({
    continues: z.string().nullable(),
    system: z.array(z.string()),
    user: z.array(z.string()),
  }),
  reply: z.object({
    answer: z.unknown().optional(),
    failure: z.string().optional(),
    /** The failure was no reply from the model (see TransportReply): it counts toward the circuit breaker. */
    noReply: z.boolean().optional(),
    error: z.string().optional(),
    usage: UsageSchema,
    /** What became of the conversation: continued, ended or left as it was. */
    conversation: z.enum(['set', 'ended', 'kept']),
  }),
});
type TapeRecord = z.infer<typeof RecordSchema>;

/**
 * The request as it is keyed: the same failure on another machine, in another temporary copy or
 * at another time must find its answer, so the project root and timings do not count.
 */
function normalise(text: string, root: string): string {
  return text
    .split(root)
    .join('<root>')
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<time>')
    .replace(/[ \t]+$/gm, '');
}

export function cassetteKey(
  fixer: string,
  model: string,
  prompt: RenderedPrompt,
  continues: string | null,
  root: string,
): string {
  return createHash('sha256')
    .update(
      JSON.stringify([fixer, model, continues, normalise(prompt.system, root), normalise(prompt.user, root)]),
    )
    .digest('hex');
}

/**
 * An answer as the file keeps it: a JSON string (a function call's arguments) as the object it
 * holds, so the cassette reads as JSON; the answer is read the same either way. A string that is
 * not JSON stays as it came, so its replay fails as the call did.
 */
function readable(answer: unknown): unknown {
  if (typeof answer !== 'string') return answer;
  try {
    const value: unknown = JSON.parse(answer);
    return value !== null && typeof value === 'object' ? value : answer;
  } catch {
    return answer;
  }
}

/**
 * The usage of an answer taken from the tape: nothing spent now (no call, no token, no cost, so
 * the run's budget is not charged for it), the recorded figures kept as `replayed`.
 */
export function replayedUsage(recorded: Usage): Usage {
  const { model, calls, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costUsd } = recorded;
  return {
    ...(model ? { model } : {}),
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    calls: 0,
    durationMs: 0,
    replayed: { answers: 1, calls, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costUsd },
  };
}

/**
 * A request a replay-only cassette has no answer for. No call was made, so it says nothing of
 * the endpoint: the circuit breaker does not count it as a call that got no reply.
 */
export class CassetteMissError extends FixerError {}

async function readRecord(file: string): Promise<TapeRecord | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = RecordSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(`the cassette file ${file} is not a recorded request; delete it and record again`);
  return parsed.data;
}

export interface TapeSpec {
  fixer: string;
  /** The model as configured (or the transport's default): part of the key. */
  model: string;
  redact: Redactor;
}

/**
 * A transport that records its calls to a cassette and replays them. Each request is a JSON file
 * named by the first characters of its key (a hash of the fixer, the model, the redacted prompt
 * and the conversation it continues), with the prompt as lines, so a cassette reads and diffs
 * well in review. Replay never calls the inner transport, so it needs neither network nor key.
 */
export function withCassette<S>(
  inner: LlmTransport<S>,
  cassette: Cassette,
  spec: TapeSpec,
): LlmTransport<Taped<S>> {
  const fileOf = (key: string): string => join(cassette.dir, `${key.slice(0, 16)}.json`);

  function replay(record: TapeRecord, prior: Taped<S> | undefined): TransportReply<Taped<S>> {
    const { reply } = record;
    const usage = replayedUsage(reply.usage);
    if (reply.error !== undefined)
      throw new FixerError(reply.error, reply.usage.calls > 0 ? usage : undefined);
    const conversation =
      reply.conversation === 'set'
        ? { key: record.key, inner: undefined }
        : reply.conversation === 'ended'
          ? null
          : prior
            ? { key: record.key, inner: prior.inner }
            : undefined;
    const base = { usage, ...(conversation !== undefined ? { conversation } : {}) };
    return reply.failure !== undefined
      ? { ...base, failure: reply.failure, ...(reply.noReply ? { noReply: true } : {}) }
      : { ...base, answer: reply.answer };
  }

  async function save(record: TapeRecord): Promise<void> {
    const file = fileOf(record.key);
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(redactDeep(record, spec.redact), null, 2)}\n`);
    await rename(tmp, file);
  }

  return {
    answer: inner.answer,
    ...(inner.readsFiles !== undefined ? { readsFiles: inner.readsFiles } : {}),
    ...(inner.checksAnswers !== undefined ? { checksAnswers: inner.checksAnswers } : {}),
    async send(call: TransportCall<Taped<S>>, ctx: FixerContext): Promise<TransportReply<Taped<S>>> {
      const prior = call.continues;
      const key = cassetteKey(spec.fixer, spec.model, call.prompt, prior?.key ?? null, ctx.root);
      const recorded = cassette.mode === 'record' ? undefined : await readRecord(fileOf(key));
      if (recorded && !(cassette.mode === 'auto' && recorded.reply.error !== undefined))
        return replay(recorded, prior);
      if (cassette.mode === 'replay') {
        const first = call.prompt.user.split('\n').find((l) => l.trim()) ?? '';
        throw new CassetteMissError(
          `the cassette ${cassette.dir} has no answer for this request (${fileOf(key)}: ${spec.fixer}, model "${spec.model}", "${call.request.failure.title}", attempt ${call.request.attempt}${prior ? ', a follow-up' : ''}; it begins "${first.slice(0, 80)}"); record it with the cassette mode "record" or "auto" (SUTURE_CASSETTE_MODE=auto) where the model can be reached`,
        );
      }
      // A conversation replayed from tape has no live state: the model gets the whole prompt.
      const live = prior?.inner;
      const prompt = prior && live === undefined ? call.restart() : call.prompt;
      const record = (reply: TapeRecord['reply']): TapeRecord => ({
        key,
        fixer: spec.fixer,
        model: spec.model,
        failure: call.request.failure.title,
        attempt: call.request.attempt,
        request: {
          continues: prior?.key ?? null,
          system: call.prompt.system.split('\n'),
          user: call.prompt.user.split('\n'),
        },
        reply,
      });
      let reply: TransportReply<S>;
      try {
        reply = await inner.send({ ...call, prompt, continues: live }, ctx);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        const usage: Usage = (error as { usage?: Usage }).usage ?? UsageSchema.parse({});
        await save(record({ error: (error as Error).message ?? String(error), usage, conversation: 'kept' }));
        throw error;
      }
      const conversation =
        reply.conversation === null ? 'ended' : reply.conversation === undefined ? 'kept' : 'set';
      await save(
        record({
          ...('failure' in reply
            ? { failure: reply.failure, ...(reply.noReply ? { noReply: true } : {}) }
            : { answer: readable(reply.answer) }),
          usage: reply.usage,
          conversation,
        }),
      );
      const taped: Taped<S> | null | undefined =
        reply.conversation === null
          ? null
          : reply.conversation === undefined
            ? prior && { key, inner: prior.inner }
            : { key, inner: reply.conversation };
      const base = { usage: reply.usage, ...(taped !== undefined ? { conversation: taped } : {}) };
      return 'failure' in reply
        ? { ...base, failure: reply.failure, ...(reply.noReply ? { noReply: true } : {}) }
        : { ...base, answer: reply.answer };
    },
  };
}
