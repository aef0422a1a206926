import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createAppRouter } from './router';

function searchKeys(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

describe('staticData.scopeBound', () => {
  const router = createAppRouter(new QueryClient());
  const routes = Object.values(router.routesById);

  it('names only keys of the route’s own search', () => {
    const declared = routes.filter((r) => r.options.staticData?.scopeBound);
    expect(declared.map((r) => r.id).sort()).toEqual(['/_app/logs', '/_app/releases/$release']);
    for (const route of declared) {
      const keys = searchKeys(route.options.validateSearch);
      const bound = route.options.staticData?.scopeBound ?? {};
      for (const key of [...(bound.project ?? []), ...(bound.range ?? [])]) {
        expect(keys, `${route.id} binds ${key}`).toContain(key);
      }
    }
  });
});
