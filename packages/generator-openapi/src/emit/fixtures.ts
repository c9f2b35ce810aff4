import type { CaseContext } from '../plan/cases.js';
import { validCall } from '../plan/cases.js';
import type { Resource } from '../plan/resources.js';
import { itemArgs, pyCall } from './calls.js';
import { pyString } from './python.js';

/** One fixture per resource: create it for the test (its parents through their fixtures), delete it after. */
export function resourceFixtures(ctx: CaseContext): string {
  const out: string[] = [];
  for (const r of ctx.resources) out.push(fixture(ctx, r));
  return out.join('\n\n');
}

function fixture(ctx: CaseContext, r: Resource): string {
  const op = ctx.model.operations.find((o) => o.id === r.create)!;
  const { call, fixtures } = validCall(ctx, op);
  const remove = r.remove ? ctx.model.operations.find((o) => o.id === r.remove) : undefined;
  const args = ['api', 'cleanup', ...fixtures.filter((f) => f !== r.fixture)];
  const lines = [
    '@pytest.fixture',
    `def ${r.fixture}(${args.join(', ')}):`,
    `    """A ${r.name} created for the test (${op.id})${remove ? `, deleted after it (${remove.id})` : ''}."""`,
    `    resp = ${pyCall(call)}`,
    '    assert resp.status_code < 300, (',
    `        f"could not create a ${r.name} for the test: {_where(resp)} answered {resp.status_code}: {_snippet(resp)}"`,
    '    )',
    '    item = resp.json()',
  ];
  if (remove && r.itemParam)
    lines.push(
      `    cleanup.add(${pyString('DELETE')}, ${pyString(remove.path)}, ${itemArgs(r.itemParam, 'item', r.idField)})`,
    );
  lines.push('    return item');
  return lines.join('\n');
}
