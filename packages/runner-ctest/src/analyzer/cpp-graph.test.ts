import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SummaryCache } from '@suture/core/analysis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CppGraph } from './cpp-graph.js';
import { createCppCache } from './cpp-model.js';
import { CppProject, DefinitionIndex } from './cpp-project.js';
import { summarizeCpp, type CppFile } from './cpp-summary.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-cpp-graph-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('CppGraph on two functions of one name in a file', () => {
  it('places a frame in the one holding its line, and walks the calls of both', async () => {
    await writeFile(
      join(root, 'doc.cpp'),
      [
        'void unlink(Node* n) {}',
        'void release(Node* n) {}',
        'void Node::DeleteNode(Node* n) {',
        '  release(n);',
        '}',
        '',
        'void Document::DeleteNode(Node* n) {',
        '  unlink(n);',
        '  Node::DeleteNode(n);',
        '}',
        '',
      ].join('\n'),
    );
    const parser = createCppCache(1);
    const summaries = new SummaryCache<CppFile>({
      name: 'cpp',
      version: 2,
      summarize: (source) => summarizeCpp(parser.parseText(source).tree),
    });
    const graph = new CppGraph(
      new CppProject(root, ['doc.cpp'], undefined, summaries, new DefinitionIndex()),
    );
    const node = { file: 'doc.cpp', symbol: 'DeleteNode' };
    expect(await graph.lines(node, 8)).toEqual({ line: 7, endLine: 10 });
    expect(await graph.lines(node, 4)).toEqual({ line: 3, endLine: 5 });
    expect(await graph.lines(node)).toEqual({ line: 3, endLine: 5 });
    const callees = (await graph.expand(node)).map((e) => e.to.symbol);
    expect(callees).toEqual(expect.arrayContaining(['release', 'unlink']));
  });
});
