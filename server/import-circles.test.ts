import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The service's files import each other in one direction only (docs/architecture.md, "Layers
 * and imports"). ESLint keeps each layer from importing the layers above it; this finds what
 * lint cannot: files importing each other in a loop, inside one folder or across several.
 */
const SERVER = import.meta.dirname;

function serverFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return serverFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

/** Each file's imports of other service files (type-only ones too: they tie the code as much). */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles
        .map((i) => i.fileName)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => path.resolve(path.dirname(file), spec))
        .flatMap((base) => [`${base}.ts`, path.join(base, 'index.ts')])
        .filter((target) => known.has(target));
      return [file, targets];
    }),
  );
}

/** Strongly connected components of more than one file (Tarjan), or a file importing itself. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found.map((c) => c.map((f) => path.relative(SERVER, f)).sort());
}

describe('server imports', () => {
  it('form no circles', () => {
    const files = serverFiles(SERVER);
    expect(files.length).toBeGreaterThan(100);
    expect(circles(importGraph(files))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const a = path.join(SERVER, 'a.ts');
    const b = path.join(SERVER, 'b.ts');
    const c = path.join(SERVER, 'c.ts');
    const graph = new Map([
      [a, [b]],
      [b, [c]],
      [c, [a]],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
