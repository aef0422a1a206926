/**
 * A note (not a credential) that this browser was signed out on purpose. When the service
 * could not be told (offline), its session cookie may still be valid; with this note, a
 * reload does not quietly exchange that cookie for a new sign-in. Signing in removes it.
 */
const KEY = 'lookout.signed-out';

export function rememberSignedOut(): void {
  try {
    localStorage.setItem(KEY, '1');
  } catch {
    // Storage unavailable: the in-memory sign-out still holds for this tab.
  }
}

export function forgetSignedOut(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}

export function wasSignedOut(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}
