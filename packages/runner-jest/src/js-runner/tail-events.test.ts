import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import { tailEvents } from './tail-events.js';

const Schema = z.object({ event: z.literal('tick'), n: z.number() });
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function eventFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-tail-'));
  dirs.push(dir);
  return join(dir, 'events.jsonl');
}

describe('following an event file another process appends to', () => {
  it('reads each whole line once, in order, and waits for the rest of a line cut in the middle', async () => {
    const path = await eventFile();
    const seen: number[] = [];
    // an interval long enough that only drain() reads
    const tail = tailEvents(path, Schema, (e) => seen.push(e.n), 60_000);
    await writeFile(path, '{"event":"tick","n":1}\n{"event":"ti');
    await tail.drain();
    expect(seen).toEqual([1]);
    await appendFile(path, 'ck","n":2}\n');
    await tail.stop();
    expect(seen).toEqual([1, 2]);
  });

  it('keeps a character split across two reads whole', async () => {
    const path = await eventFile();
    const bytes = Buffer.from('{"event":"tick","n":3}\n', 'utf8');
    const names: string[] = [];
    const Named = z.object({ event: z.literal('name'), name: z.string() });
    const tail = tailEvents(path, Named, (e) => names.push(e.name), 60_000);
    const line = Buffer.from('{"event":"name","name":"café"}\n', 'utf8');
    const cut = line.indexOf(0xc3) + 1; // inside the two bytes of é
    await writeFile(path, line.subarray(0, cut));
    await tail.drain();
    await appendFile(path, Buffer.concat([line.subarray(cut), bytes]));
    await tail.stop();
    expect(names).toEqual(['café']);
  });

  it('skips a line that is not JSON or does not fit the schema, and goes on reading', async () => {
    const path = await eventFile();
    const seen: number[] = [];
    const tail = tailEvents(path, Schema, (e) => seen.push(e.n), 60_000);
    await writeFile(
      path,
      'Error: not json\n{"event":"tick","n":"four"}\n{"event":"other"}\n\n{"event":"tick","n":5}\n',
    );
    await tail.stop();
    expect(seen).toEqual([5]);
  });

  it('reads nothing, and does not throw, while the file does not exist', async () => {
    const path = await eventFile();
    const seen: number[] = [];
    const tail = tailEvents(path, Schema, (e) => seen.push(e.n), 60_000);
    await tail.drain();
    await writeFile(path, '{"event":"tick","n":6}\n');
    await tail.stop();
    expect(seen).toEqual([6]);
  });
});
