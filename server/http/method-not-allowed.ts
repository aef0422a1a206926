import type { RouterRoute } from 'hono/types';

type Template = { regex: RegExp; path: string; methods: Set<string> };

/**
 * Knows every registered path template and its methods, so that a known path called with
 * another method can answer `405` naming the supported ones (Hono itself only says 404).
 */
export function createMethodIndex(routes: readonly RouterRoute[]) {
  const templates = new Map<string, Template>();
  for (const r of routes) {
    if (r.method === 'ALL' || r.path.includes('*')) continue;
    let t = templates.get(r.path);
    if (!t) {
      const pattern = r.path
        .split('/')
        .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      // Exact, as the router matches (strict): `/api/projects/` is an unknown path, not a 405.
      t = {
        regex: new RegExp(`^${pattern}$`),
        path: r.path.replace(/:([A-Za-z_]+)/g, '{$1}'),
        methods: new Set(),
      };
      templates.set(r.path, t);
    }
    t.methods.add(r.method.toUpperCase());
  }
  // Static segments beat parameters, as in the router: `/api/logs/attributes` before `/api/logs/{id}`.
  const ordered = [...templates.values()].sort(
    (a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0),
  );
  return {
    allowedFor(path: string): { methods: string[]; path: string } | null {
      const t = ordered.find((x) => x.regex.test(path));
      if (!t) return null;
      return { methods: [...t.methods].sort(), path: t.path };
    },
  };
}
