/**
 * TEMPORARY while the PostgreSQL store is being ported (issue 12): a part of the store whose
 * every method throws. Nothing that uses this may land on main.
 */
export function notPorted<T extends object>(part: string): T {
  return new Proxy({} as T, {
    get: (_t, method) => () => {
      throw new Error(`PostgreSQL store: ${part}.${String(method)} is not ported yet`);
    },
  });
}
