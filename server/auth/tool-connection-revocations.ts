import type { Deps } from '../core/deps';

type Listener = (connectionId: string) => void;

const listeners = new WeakMap<Deps, Set<Listener>>();

/**
 * Tells what holds a tool connection open in this instance (the MCP server's sessions) that
 * it was revoked, so those end at once rather than at their next request. Another instance
 * sharing the database still refuses the connection on its next request (every request checks
 * the credential); this only makes the local end immediate.
 */
export function onToolConnectionRevoked(deps: Deps, listener: Listener): () => void {
  let set = listeners.get(deps);
  if (!set) {
    set = new Set();
    listeners.set(deps, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function announceToolConnectionRevoked(deps: Deps, connectionId: string): void {
  for (const listener of listeners.get(deps) ?? []) listener(connectionId);
}
