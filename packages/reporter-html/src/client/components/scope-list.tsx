import type { Scope } from '@suture/core';

/** The files a fix could touch, nearest to the failure first, each with why it is there. */
export function ScopeList({ scope }: { scope: Scope }) {
  const ranked = [...scope.entries].sort((a, b) => a.depth - b.depth || a.file.localeCompare(b.file));
  return (
    <div class="scope">
      <h4>Scope ({ranked.length})</h4>
      <ol class="scope-entries">
        {ranked.map((e) => (
          <li key={e.file}>
            <code>{e.file}</code> <span class="role">{e.role}</span>{' '}
            <span class="depth">depth {e.depth}</span>
            {e.symbols.length > 0 ? <span class="symbols"> {e.symbols.join(', ')}</span> : null}
            <ul class="reasons">
              {e.reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {scope.excluded.length > 0 ? (
        <>
          <h4>Left out of the scope</h4>
          <ul class="excluded">
            {scope.excluded.map((x) => (
              <li key={x.file}>
                <code>{x.file}</code>: {x.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
