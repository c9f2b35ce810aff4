import { API_VERSION, type DoctorCheck, type Fixer, type PluginFactoryContext } from '@suture/core';
import { cliPropose } from './cli/propose.js';
import { doctor } from './doctor.js';
import { resolveOptions, type ClaudeOptions, type ResolvedOptions } from './options.js';

type Propose = Fixer['propose'];

/** api mode loads the SDK on its first call, so cli mode never pays for it. */
function lazyApi(options: ResolvedOptions): Propose {
  let loaded: Promise<Propose> | undefined;
  return async (request, ctx) => {
    loaded ??= import('./api/propose.js').then((m) => m.apiPropose(options));
    return (await loaded)(request, ctx);
  };
}

/**
 * The Claude fixer: asks the installed `claude` in headless mode (or, with `mode: 'api'`, the
 * Messages API) for a patch inside the failure's scope. It reads the project but never writes
 * it: claude gets read-only tools, and the answer is a proposal the engine validates.
 * Options are checked here, at load, so a mistake names the config entry before the run starts.
 */
export default function claude(options: ClaudeOptions = {}, context?: PluginFactoryContext): Fixer {
  const resolved = resolveOptions(options, context?.configDir ?? process.cwd());
  return {
    name: '@suture/llm-claude-cli',
    apiVersion: API_VERSION,
    propose: resolved.mode === 'api' ? lazyApi(resolved) : cliPropose(resolved),
    doctor: (): Promise<DoctorCheck[]> => doctor(resolved),
  };
}
