import { ColorSchemeType } from 'diff2html/lib-esm/types.js';
import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-base.js';
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { hljs } from '../highlight.js';

/** Diff2Html only draws a diff once it scrolls near the viewport: a report may hold hundreds. */
function useNearViewport(): [RefObject<HTMLDivElement | null>, boolean] {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '600px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

/** A unified diff drawn line by line with syntax highlighting; the raw text until it is drawn. */
export function DiffView({ diff, label }: { diff: string; label: string }) {
  const [ref, near] = useNearViewport();
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!near || !target.current) return;
    const ui = new Diff2HtmlUI(
      target.current,
      diff,
      {
        drawFileList: false,
        matching: 'lines',
        outputFormat: 'line-by-line',
        synchronisedScroll: false,
        fileListToggle: false,
        fileContentToggle: false,
        stickyFileHeaders: false,
        highlight: true,
        colorScheme: ColorSchemeType.AUTO,
      },
      hljs,
    );
    ui.draw();
  }, [near, diff]);
  return (
    <div class="diff" ref={ref} role="region" aria-label={label}>
      {near ? <div ref={target} class="diff-drawn" /> : <pre class="diff-raw">{diff}</pre>}
    </div>
  );
}
