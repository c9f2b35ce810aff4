import { describe, expect, it } from 'vitest';
import { runnerTool } from './create-nodes.js';

describe("a suture target's technologies", () => {
  it('name the test tool of a first-party runner, by package name or alias, with or without options', () => {
    expect(runnerTool('@suture/runner-vitest')).toBe('vitest');
    expect(runnerTool(['@suture/runner-vitest', { config: 'vitest.config.ts' }])).toBe('vitest');
    expect(runnerTool('jest')).toBe('jest');
    expect(runnerTool(['pytest', { python: 'python3' }])).toBe('pytest');
  });

  it('name no tool for a runner in a local file or another package, rather than guess one', () => {
    expect(runnerTool('./runners/vitest.mjs')).toBeUndefined();
    expect(runnerTool('/abs/runner-jest.js')).toBeUndefined();
    expect(runnerTool('@acme/runner-vitest')).toBeUndefined();
    expect(runnerTool('suture-runner-jest')).toBeUndefined();
  });
});
