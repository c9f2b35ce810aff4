import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from './cli-support.js';

afterAll(cleanup);

async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
}

describe('suture init and doctor on Go and Rust projects', () => {
  it('init finds a Go module and a Cargo workspace; doctor checks go and cargo', async () => {
    const dir = await workspace();
    await write(dir, {
      'svc/go.mod': 'module example.com/svc\n\ngo 1.22\n',
      'svc/sum.go': 'package svc\n\nfunc Sum(a, b int) int { return a + b }\n',
      'svc/sum_test.go':
        'package svc\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Fatal("sum")\n\t}\n}\n',
      'crates/Cargo.toml': '[workspace]\nmembers = ["calc"]\nresolver = "2"\n',
      'crates/calc/Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
      'crates/calc/src/lib.rs':
        'pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n',
    });
    const init = await suture(['init'], dir);
    expect(init.code).toBe(0);
    const config = JSON.parse(await readFile(join(dir, 'suture.config.json'), 'utf8')) as {
      projects: Array<{ name: string; root: string; runner: unknown }>;
    };
    const runners = Object.fromEntries(
      config.projects.map((p) => [p.root, Array.isArray(p.runner) ? p.runner[0] : p.runner]),
    );
    expect(runners).toEqual({ svc: 'go', crates: 'cargo' });
    const doctor = await suture(['doctor'], dir);
    expect(doctor.stdout).toMatch(/ok +svc: go version go\d/);
    expect(doctor.stdout).toMatch(/ok +crates: cargo \d+\.\d+/);
    expect(doctor.stdout).toMatch(/ok +crates: rustc \d+\.\d+/);
    expect(doctor.code).toBe(0);
  });

  it('doctor says how to install a missing go and a missing cargo, and fails', async () => {
    const dir = await workspace();
    await mkdir(join(dir, 'svc'));
    await mkdir(join(dir, 'calc'));
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({
        projects: [
          { name: 'svc', root: 'svc', runner: ['go', { go: 'go-missing' }] },
          { name: 'calc', root: 'calc', runner: ['cargo', { cargo: 'cargo-missing' }] },
        ],
      }),
    );
    const doctor = await suture(['doctor'], dir);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /ERROR svc: go-missing cannot run: .*\n\s+fix: install Go from https:\/\/go\.dev\/dl\//,
    );
    expect(doctor.stdout).toMatch(/ERROR calc: cargo-missing not found\n\s+fix: .*rustup/);
  });
});
