import { describe, expect, it } from 'vitest';
import { asPlugin, catchPluginExits, PluginExitError, type PluginExit } from './plugin-exits.js';

const frame = { plugin: 'exit-fixer (suture.config.json#fixers[0])', hook: 'propose' };

describe('catchPluginExits', () => {
  it("stops a plugin's exit where it was called and hands the first one over, naming the plugin", async () => {
    const seen: PluginExit[] = [];
    let after = false;
    const thrown = await catchPluginExits(
      (exit) => seen.push(exit),
      async () => {
        try {
          asPlugin(frame, () => {
            process.exit(0);
            after = true;
          });
        } catch (error) {
          return error;
        }
        return undefined;
      },
    );
    expect(thrown).toBeInstanceOf(PluginExitError);
    expect(after).toBe(false);
    expect(seen.map((e) => e.message)).toEqual([
      'exit-fixer (suture.config.json#fixers[0]) called process.exit(0) in propose; a plugin must return or throw, never end the process',
    ]);
  });

  it('knows an exit from a timer the plugin started as its own, and keeps the process alive', async () => {
    const seen: PluginExit[] = [];
    await catchPluginExits(
      (exit) => seen.push(exit),
      () =>
        new Promise<void>((resolve) => {
          asPlugin(frame, () => setTimeout(() => process.exit(7), 1));
          setTimeout(resolve, 50);
        }),
    );
    expect(seen.map((e) => e.code)).toEqual([7]);
  });

  it('lets an exit outside any plugin call through, and puts process.exit back after the gate', async () => {
    const before = process.exit;
    // vitest's own process.exit throws in its workers: what an exit that went through meets here
    await catchPluginExits(
      () => {
        throw new Error('not a plugin exit');
      },
      async () => expect(() => process.exit(5)).toThrow(/process\.exit unexpectedly called/),
    );
    expect(process.exit).toBe(before);
  });
});
