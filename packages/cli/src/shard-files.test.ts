import { describe, expect, it } from 'vitest';
import { partLabel, planShardParts } from './shard-files.js';
import { testFileOf } from './shard.js';

const durations = new Map([
  ['big', 1000],
  ['mid', 300],
  ['small', 100],
]);
const files = new Map([
  [
    'big',
    new Map([
      ['tests/test_a.py', 400],
      ['tests/test_b.py', 300],
      ['tests/test_c.py', 200],
      ['tests/test_d.py', 100],
    ]),
  ],
  ['mid', new Map([['tests/test_m.py', 300]])],
]);
const projects = [
  { name: 'big', splittable: true },
  { name: 'mid', splittable: true },
  { name: 'small', splittable: true },
];

describe('planShardParts', () => {
  it('splits a project longer than a shard’s share by its test files, the longest first, and keeps the others whole', () => {
    const plan = planShardParts(projects, durations, files, 3);
    // share 1400 / 3: big goes as its files a 400, b 300, c 200, d 100, with mid 300 and small 100
    expect(plan).toEqual([
      [{ project: 'big', files: ['tests/test_a.py'] }, { project: 'small' }],
      [{ project: 'big', files: ['tests/test_b.py', 'tests/test_c.py'] }],
      [
        { project: 'mid' },
        {
          project: 'big',
          files: ['tests/test_d.py'],
          rest: { exclude: ['tests/test_a.py', 'tests/test_b.py', 'tests/test_c.py'] },
        },
      ],
    ]);
    // every known file runs once, and exactly one part runs whatever else the project holds
    const bigParts = plan.flat().filter((p) => p.project === 'big');
    expect(bigParts.flatMap((p) => p.files!).sort()).toEqual([...files.get('big')!.keys()].sort());
    expect(bigParts.filter((p) => p.rest)).toHaveLength(1);
    expect(planShardParts([...projects].reverse(), durations, files, 3)).toEqual(plan);
  });

  it('keeps a project whole when its runner selects no files, its files are unknown, or one shard holds them all', () => {
    const whole = (plan: ReturnType<typeof planShardParts>): boolean => plan.flat().every((p) => !p.files);
    expect(
      whole(
        planShardParts(
          projects.map((p) => ({ ...p, splittable: false })),
          durations,
          files,
          3,
        ),
      ),
    ).toBe(true);
    expect(whole(planShardParts(projects, durations, new Map(), 3))).toBe(true);
    expect(whole(planShardParts(projects, durations, files, 1))).toBe(true);
    const lopsided = new Map([
      [
        'big',
        new Map([
          ['tests/test_a.py', 990],
          ['tests/test_b.py', 10],
        ]),
      ],
    ]);
    expect(whole(planShardParts([{ name: 'big', splittable: true }], durations, lopsided, 1))).toBe(true);
  });

  it('says in the log what each part runs', () => {
    const [first, second, third] = planShardParts(projects, durations, files, 3);
    expect(first!.map(partLabel)).toEqual(['big (tests/test_a.py)', 'small']);
    expect(second!.map(partLabel)).toEqual(['big (tests/test_b.py, tests/test_c.py)']);
    expect(third!.map(partLabel)).toEqual(['mid', 'big (1 test file(s) and any other but 3)']);
  });
});

describe('testFileOf', () => {
  it('reads the file from pytest and Jest test ids, and none from an id without one', () => {
    expect(testFileOf('tests/test_cart.py::TestCart::test_total[1]')).toBe('tests/test_cart.py');
    expect(testFileOf('__tests__/cart.test.js::cart adds')).toBe('__tests__/cart.test.js');
    expect(testFileOf('Calc.Adds')).toBeUndefined();
  });
});
