import { runProcess } from '@suture/core';

// The runner and this fixer must ask the same interpreter, so the lookup is core's one answer.
export { resolvePython as projectPython } from '@suture/core/analysis';

const cache = new Map<string, Promise<unknown>>();

/** Runs a Python snippet that prints JSON, once per interpreter and snippet. */
async function ask<T>(python: string, root: string, code: string): Promise<T | undefined> {
  const key = `${python}\0${code}`;
  if (!cache.has(key)) {
    cache.set(
      key,
      runProcess(python, ['-c', code], {
        cwd: root,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
        timeoutMs: 20_000,
      }).then((r) => {
        if (r.exitCode !== 0) return undefined;
        try {
          return JSON.parse(r.output);
        } catch {
          return undefined;
        }
      }),
    );
  }
  return (await cache.get(key)) as T | undefined;
}

export interface PythonFacts {
  builtins: string[];
  stdlib: string[];
}

export function pythonFacts(python: string, root: string): Promise<PythonFacts | undefined> {
  return ask<PythonFacts>(
    python,
    root,
    'import builtins, json, sys; print(json.dumps({"builtins": dir(builtins), "stdlib": sorted(sys.stdlib_module_names)}))',
  );
}

/** dir() of a stdlib module or of a builtin type, asked of the project's own interpreter. */
export function dirOf(
  python: string,
  root: string,
  what: { module: string } | { builtinType: string },
): Promise<string[] | undefined> {
  const expr =
    'module' in what
      ? `importlib.import_module(${JSON.stringify(what.module)})`
      : `getattr(builtins, ${JSON.stringify(what.builtinType)})`;
  return ask<string[]>(python, root, `import builtins, importlib, json; print(json.dumps(dir(${expr})))`);
}
