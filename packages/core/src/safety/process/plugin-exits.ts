import { AsyncLocalStorage } from 'node:async_hooks';

/** The plugin call a piece of code runs in: set by the loaded-plugin wrapper around each call. */
export interface PluginFrame {
  /** `name (config entry)`, as a PluginError names the plugin. */
  plugin: string;
  /** The hook called: `propose`, `run`, `onRunEnd`. */
  hook: string;
}

/** An exit a plugin asked for while a gate ran: what it called, from where. */
export interface PluginExit {
  frame: PluginFrame;
  code: string | number | null | undefined;
  /** What the report and the console say. */
  message: string;
}

/** Thrown in place of the exit a plugin asked for, so the plugin's code stops where it stood. */
export class PluginExitError extends Error {
  override name = 'PluginExitError';
  constructor(readonly exit: PluginExit) {
    super(exit.message);
  }
}

interface Watch {
  onExit: (exit: PluginExit) => void;
  first?: PluginExit;
}

// One store per process, whatever copy of @suture/core a plugin loads (as spawn-context.ts does):
// the frame is set by the wrapper of one copy and read by the interceptor of another.
const FRAMES = Symbol.for('@suture/core/plugin-frame');
const WATCHES = Symbol.for('@suture/core/plugin-exit-watch');
const store = globalThis as Record<symbol, unknown>;
const frames = (store[FRAMES] ??= new AsyncLocalStorage<PluginFrame>()) as AsyncLocalStorage<PluginFrame>;
const watches = (store[WATCHES] ??= new AsyncLocalStorage<Watch>()) as AsyncLocalStorage<Watch>;

/**
 * Runs `fn` as code of this plugin: what it starts (promises, timers, listeners) keeps the frame,
 * so an exit it asks for later is still known to be the plugin's.
 */
export function asPlugin<T>(frame: PluginFrame, fn: () => T): T {
  return frames.run(frame, fn);
}

let active = 0;
let realExit: typeof process.exit | undefined;

function exitMessage(frame: PluginFrame, code: PluginExit['code']): string {
  return `${frame.plugin} called process.exit(${code ?? ''}) in ${frame.hook}; a plugin must return or throw, never end the process`;
}

function intercept(this: NodeJS.Process, code?: string | number | null): never {
  const frame = frames.getStore();
  const watch = watches.getStore();
  // suture's own exits (a second Ctrl-C) and code outside any plugin call end the process
  if (!frame || !watch) return realExit!.call(this, code);
  const exit: PluginExit = { frame, code, message: exitMessage(frame, code) };
  if (!watch.first) {
    watch.first = exit;
    watch.onExit(exit);
  }
  throw new PluginExitError(exit);
}

/**
 * The throw that stopped a plugin's exit may land outside any promise (a timer, a listener): it
 * has been recorded and the gate stopped, so it must not end the process as an uncaught error.
 */
function swallowExitThrow(error: unknown): void {
  if (error instanceof Error && error.name === 'PluginExitError') return;
  // Not ours: what Node does with an uncaught error when nobody else listens.
  if (process.listenerCount('uncaughtException') > 1) return;
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  realExit!.call(process, 1);
}

function install(): void {
  if (active++ > 0) return;
  realExit = process.exit;
  process.exit = intercept as typeof process.exit;
  process.on('uncaughtException', swallowExitThrow);
}

function uninstall(): void {
  if (--active > 0) return;
  process.off('uncaughtException', swallowExitThrow);
  process.exit = realExit!;
  realExit = undefined;
}

/**
 * Runs a gate with `process.exit` from plugin code turned into a stop of the run: a plugin
 * (fixer, runner, analyzer, reporter) shares suture's process, and its exit would end it with
 * the journal unrestored, the lock held and no report. The first such exit is handed to
 * `onExit` (which stops the run); the plugin's code stops with a PluginExitError where it called
 * exit. Exits from outside a plugin call go through.
 */
export async function catchPluginExits<T>(
  onExit: (exit: PluginExit) => void,
  fn: () => Promise<T>,
): Promise<T> {
  install();
  try {
    return await watches.run({ onExit }, fn);
  } finally {
    uninstall();
  }
}

/**
 * `catchPluginExits` for synchronous plugin code that runs before any gate (a factory while the
 * config loads): an exit there becomes a PluginExitError thrown where it was called, which the
 * loader reports as a broken plugin, instead of suture exiting with the plugin's code (0: green).
 */
export function catchPluginExitsSync<T>(fn: () => T): T {
  install();
  try {
    return watches.run({ onExit: () => undefined }, fn);
  } finally {
    uninstall();
  }
}
