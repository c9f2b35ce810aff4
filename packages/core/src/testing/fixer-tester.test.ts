import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FixProposalInput, FixRequest } from '../api/contracts/fix.js';
import { API_VERSION, type Fixer } from '../api/plugin.js';
import { checkFixerCase, type FixerCase } from './fixer-case.js';
import { FixerTester } from './fixer-tester.js';

const fixer = (propose: (request: FixRequest) => Promise<FixProposalInput> | FixProposalInput): Fixer => ({
  name: 'test-fixer',
  apiVersion: API_VERSION,
  propose: async (request) => propose(request),
});

const atTen: FixProposalInput = {
  verdict: 'edits',
  edits: [{ file: 'shop/pricing.py', search: 'units > 10', replace: 'units >= 10' }],
  rationale: 'the discount starts at 10 units',
};
const fixed = 'def discount(units):\n    if units >= 10:\n        return 0.1\n    return 0\n';
const healsSample: FixerCase = {
  name: 'heals the sample',
  expect: { verdict: 'edits', files: { 'shop/pricing.py': fixed }, message: /at 10 units/ },
};

describe('checkFixerCase', () => {
  it('passes a fixer whose edits give the expected files', async () => {
    await checkFixerCase(
      fixer(() => atTen),
      healsSample,
    );
  });

  it('reads the project the request points at, given inline or as a folder', async () => {
    const reads = fixer(async (request) => {
      const source = request.sources.find((s) => s.file === 'src/a.py')!;
      return {
        verdict: 'edits',
        edits: [{ file: 'src/a.py', content: source.text.replace('totl', 'total') }],
        rationale: `read ${request.project.root}`,
      };
    });
    await checkFixerCase(reads, {
      name: 'inline',
      project: { 'src/a.py': 'total = 1\nprint(totl)\n' },
      expect: { verdict: 'edits', files: { 'src/a.py': 'total = 1\nprint(total)\n' } },
    });
  });

  it("lays a case's partial policy over the default one", async () => {
    const creates = fixer((request) => ({
      verdict: 'edits',
      edits: [{ file: 'shop/new.py', content: `new_files = ${String(request.policy.allowNewFiles)}\n` }],
      rationale: `the policy has ${request.policy.allowedPaths.join(', ')}`,
    }));
    await checkFixerCase(creates, {
      name: 'a new file',
      request: { policy: { allowNewFiles: true } as FixRequest['policy'] },
      expect: {
        verdict: 'edits',
        files: { 'shop/new.py': 'new_files = true\n' },
        message: 'the policy has **',
      },
    });
  });

  it('names the case and the key of a request field that is wrong, not the fixer', async () => {
    const wrong = checkFixerCase(
      fixer(() => atTen),
      {
        name: 'typo in the policy',
        request: { policy: { editable: 'everything' } as unknown as FixRequest['policy'] },
        expect: { verdict: 'edits' },
      },
    );
    await expect(wrong).rejects.toThrow(
      /^case "typo in the policy": the fix request is not a valid FixRequest:\n {2}- policy\.editable: .*"everything"/,
    );
    await expect(wrong).rejects.not.toThrow(/ZodError|"code":/);
  });

  it('fails when the files differ from the expectation, showing both', async () => {
    await expect(
      checkFixerCase(
        fixer(() => atTen),
        { name: 'x', expect: { verdict: 'edits', files: { 'shop/pricing.py': 'other\n' } } },
      ),
    ).rejects.toThrow(/shop\/pricing\.py after the edits:\ndef discount[\s\S]*expected:\nother/);
  });

  it('fails a fixer that changes its request', async () => {
    const mutating = fixer((request) => {
      request.history.push({ attempt: 1, fixer: 'me', verdict: 'edits', outcome: 'noted' });
      return atTen;
    });
    await expect(checkFixerCase(mutating, healsSample)).rejects.toThrow(
      /the fixer changed its request .*; a fixer must treat the request as read-only/,
    );
    const deep = fixer((request) => {
      (request.failure.location as { line?: number }).line = 1;
      return atTen;
    });
    await expect(checkFixerCase(deep, healsSample)).rejects.toThrow(/changed its request/);
  });

  it('fails a fixer that writes project files', async () => {
    const writer = fixer(async (request) => {
      await writeFile(join(request.project.root, 'shop/pricing.py'), fixed);
      return atTen;
    });
    await expect(checkFixerCase(writer, healsSample)).rejects.toThrow(
      /the fixer wrote project files \(modified shop\/pricing\.py\); it must return edits instead/,
    );
  });

  it('fails edits the engine refuses, and passes them when the case expects the refusal', async () => {
    const outside = fixer(() => ({
      verdict: 'edits',
      edits: [{ file: 'tests/test_pricing.py', search: '== 0.1', replace: '== 0' }],
      rationale: 'change the test',
    }));
    await expect(checkFixerCase(outside, healsSample)).rejects.toThrow(
      /^the engine refuses the edits: edit 1: tests\/test_pricing\.py is outside the failure's scope/,
    );
    await checkFixerCase(outside, {
      name: 'refused',
      expect: { verdict: 'edits', refused: /outside the failure's scope/ },
    });
    await expect(
      checkFixerCase(
        fixer(() => atTen),
        { name: 'not refused', expect: { verdict: 'edits', refused: /scope/ } },
      ),
    ).rejects.toThrow(/expected the engine to refuse the edits/);
  });

  it('fails a proposal that is not a FixProposal, saying which key is wrong', async () => {
    const invalid = fixer(() => ({ verdict: 'edits', edits: [], rationale: 'nothing' }));
    await expect(checkFixerCase(invalid, healsSample)).rejects.toThrow(
      /the proposal is not a valid FixProposal:\n {2}- edits: /,
    );
  });

  it('compares verdicts and messages, and expects throws when asked to', async () => {
    const giveUp = fixer(() => ({ verdict: 'unfixable', diagnosis: 'needs a human' }));
    await checkFixerCase(giveUp, { name: 'u', expect: { verdict: 'unfixable', message: 'human' } });
    await expect(checkFixerCase(giveUp, healsSample)).rejects.toThrow(
      /expected verdict "edits", got "unfixable": needs a human/,
    );
    const thrower = fixer(() => {
      throw new Error('ANTHROPIC_API_KEY is not set');
    });
    await checkFixerCase(thrower, { name: 't', expect: { throws: /API_KEY/ } });
    await expect(checkFixerCase(thrower, healsSample)).rejects.toThrow(
      /the fixer threw: ANTHROPIC_API_KEY is not set/,
    );
  });

  it('fails a case about a kind of failure the fixer says it never handles', async () => {
    const buildOnly: Fixer = { ...fixer(() => atTen), kinds: ['build'] };
    await expect(checkFixerCase(buildOnly, healsSample)).rejects.toThrow(
      /declares kinds \[build\], so the engine never asks it about a "assertion" failure/,
    );
  });
});

describe('FixerTester', () => {
  it('registers one test per case and refuses duplicate names', async () => {
    const registered: Array<{ name: string; fn: () => Promise<void> }> = [];
    const groups: string[] = [];
    const api = {
      describe: (name: string, fn: () => void) => {
        groups.push(name);
        fn();
      },
      it: (name: string, fn: () => Promise<void>) => void registered.push({ name, fn }),
    };
    new FixerTester(api).run('sample fixer', () => fixer(() => atTen), [
      healsSample,
      { name: 'wrong', expect: { verdict: 'unfixable' } },
    ]);
    expect(groups).toEqual(['sample fixer']);
    expect(registered.map((r) => r.name)).toEqual(['heals the sample', 'wrong']);
    await registered[0]!.fn();
    await expect(registered[1]!.fn()).rejects.toThrow(/expected verdict "unfixable", got "edits"/);
    expect(() =>
      new FixerTester(api).run(
        'dup',
        fixer(() => atTen),
        [healsSample, healsSample],
      ),
    ).toThrow(/two cases are named "heals the sample"/);
  });
});
