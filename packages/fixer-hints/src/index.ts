import { API_VERSION, runProcess, type DoctorCheck, type Fixer, type FixProposalInput } from '@suture/core';
import { cppFixIts } from './cpp/rules.js';
import { fixItProposal } from './fixits.js';
import { goProposal } from './go/rules.js';
import { HintsOptionsSchema, type HintsOptions } from './options.js';
import { projectPython } from './python/interpreter.js';
import { pythonProposal } from './python/rules.js';
import { rustProposal } from './rust/rules.js';
import { scriptDoctor, scriptHints } from './script/hints.js';

export type { HintsOptions } from './options.js';

const NEEDS_LLM = 'needs an LLM fixer (configure @suture/llm-claude-cli or @suture/llm-openai)';

/**
 * The deterministic fixer: applies the toolchain's own fix-it hints and computes the suggestions
 * Python 3.11 and JavaScript do not print. It never guesses: an ambiguous case is `unfixable`,
 * so the next fixer in the ladder gets it.
 */
export default function hints(options: HintsOptions = {}): Fixer {
  const resolved = HintsOptionsSchema.parse(options);
  return {
    name: '@suture/fixer-hints',
    apiVersion: API_VERSION,
    async propose(request): Promise<FixProposalInput> {
      const language = request.project.language;
      // rustc marks which of its suggestions are safe: only those, never the generic fix-it path
      const rust = language === 'rust' ? await rustProposal(request) : undefined;
      if (rust) return rust;
      const go = language === 'go' ? await goProposal(request) : undefined;
      if (go) return go;
      const computed = language === 'cpp' || language === 'c' ? await cppFixIts(request) : undefined;
      const proposal =
        (await fixItProposal(request, computed)) ??
        (computed?.ambiguous.length
          ? {
              verdict: 'unfixable' as const,
              diagnosis: `more than one fix is possible: ${computed.ambiguous.join('; ')}; ${NEEDS_LLM}`,
              usage: { calls: 0, costUsd: 0 },
            }
          : undefined) ??
        (language === 'python' ? await pythonProposal(request, resolved.python) : undefined) ??
        (language === 'javascript' || language === 'typescript' ? await scriptHints(request) : undefined);
      if (proposal) return proposal;
      const what =
        request.failure.kind === 'assertion' ? 'assertion failure' : `${request.failure.kind} failure`;
      return {
        verdict: 'unfixable',
        diagnosis: `${what} with no toolchain hint: ${NEEDS_LLM}`,
        usage: { calls: 0, costUsd: 0 },
      };
    },
    async doctor(): Promise<DoctorCheck[]> {
      const python = await projectPython(process.cwd(), resolved.python);
      const r = await runProcess(python, ['--version'], {
        cwd: process.cwd(),
        env: process.env,
        timeoutMs: 10_000,
      });
      return [
        r.exitCode === 0
          ? { name: 'python', status: 'ok', message: `${python} for Python hints: ${r.output.trim()}` }
          : {
              name: 'python',
              status: 'warn',
              message: `${python} not found: Python hints are off`,
              fix: 'install Python 3 or set the fixer option "python"',
            },
        ...scriptDoctor(),
      ];
    },
  };
}
