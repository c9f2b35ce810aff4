import { createRequire } from 'node:module';
import type { DoctorCheck, FixProposalInput, FixRequest } from '@suture/core';
import { undefinedName } from './undefined-name.js';

type ScriptRules = typeof import('./rules.js');

export const TYPESCRIPT_INSTALL = 'npm install -D typescript';

let rules: Promise<ScriptRules | undefined> | undefined;

function isMissingPackage(error: unknown, name: string): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === 'ERR_MODULE_NOT_FOUND' && (e.message ?? '').includes(`'${name}'`);
}

/**
 * The rules built on the TypeScript language service, loaded on the first JS/TS case: TypeScript
 * is an optional peer (23 MB that a Python or C++ project never needs), so it may be missing.
 */
function loadRules(): Promise<ScriptRules | undefined> {
  rules ??= import('./rules.js').catch((error: unknown) => {
    if (isMissingPackage(error, 'typescript')) return undefined;
    throw error;
  });
  return rules;
}

/**
 * Hints for a JavaScript or TypeScript failure, or undefined when it is not a case they handle.
 * Without TypeScript installed the case goes to the next fixer, with the command that enables it.
 */
export async function scriptHints(request: FixRequest): Promise<FixProposalInput | undefined> {
  if (!undefinedName(request) || !request.failure.location) return undefined;
  const loaded = await loadRules();
  if (loaded) return loaded.scriptProposal(request);
  return {
    verdict: 'unfixable',
    diagnosis: `JavaScript/TypeScript hints need the typescript package, which is not installed (${TYPESCRIPT_INSTALL}); passed to the next fixer`,
    usage: { calls: 0, costUsd: 0 },
  };
}

/** Whether the optional peers resolve from this package, without loading TypeScript itself. */
export function scriptDoctor(): DoctorCheck[] {
  const require = createRequire(import.meta.url);
  const version = (name: string): string | undefined => {
    try {
      return (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      return undefined;
    }
  };
  const ts = version('typescript');
  if (!ts)
    return [
      {
        name: 'typescript',
        status: 'warn',
        message: 'typescript is not installed: JavaScript/TypeScript hints are off',
        fix: TYPESCRIPT_INSTALL,
      },
    ];
  const node = version('@types/node');
  return [
    { name: 'typescript', status: 'ok', message: `typescript ${ts} for JavaScript/TypeScript hints` },
    node
      ? { name: '@types/node', status: 'ok', message: `@types/node ${node} for Node built-in module hints` }
      : {
          name: '@types/node',
          status: 'warn',
          message:
            "@types/node is not installed: a missing require('os') or import of a Node built-in is not fixed",
          fix: 'npm install -D @types/node',
        },
  ];
}
