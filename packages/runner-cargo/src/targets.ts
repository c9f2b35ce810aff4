import type { CargoMetadata } from './metadata.js';
import { targetOf } from './metadata.js';
import { doctestPlace, type Section } from './libtest.js';

/** cargo's flags that select one target of one package: `-p calc --test api`. */
export function targetFlags(
  meta: CargoMetadata,
  section: Pick<Section, 'kind' | 'key'>,
): string[] | undefined {
  if (section.kind === 'doc') {
    const pkg = meta.packages.find((p) => p.dir === section.key);
    return pkg ? ['-p', pkg.name, '--doc'] : undefined;
  }
  const found = targetOf(meta, section.key);
  if (!found) return undefined;
  const { pkg, target } = found;
  const flag =
    target.kind === 'lib' || target.kind === 'proc-macro' ? ['--lib'] : [`--${target.kind}`, target.name];
  return ['-p', pkg.name, ...flag];
}

/** A test id split into the section it runs in and libtest's name for it. */
export function splitId(
  meta: CargoMetadata,
  id: string,
): { section: Pick<Section, 'kind' | 'key'>; name: string } | undefined {
  const doc = doctestPlace(id);
  if (doc) {
    // the package whose folder prefixes the doctest's file, the deepest one
    const pkg = [...meta.packages]
      .sort((a, b) => b.dir.length - a.dir.length)
      .find((p) => p.dir === '' || id.startsWith(`${p.dir}/`));
    if (!pkg) return undefined;
    return { section: { kind: 'doc', key: pkg.dir }, name: pkg.dir ? id.slice(pkg.dir.length + 1) : id };
  }
  const at = id.indexOf('.rs::');
  if (at < 0) return undefined;
  return { section: { kind: 'unit', key: id.slice(0, at + 3) }, name: id.slice(at + 5) };
}
