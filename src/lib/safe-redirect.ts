/**
 * Where to go after signing in: only a same-origin path (`/projects?since=7d`), never another
 * origin (`//evil.example`, `/\evil.example`, `https://…`) or a script URL.
 */
export const DEFAULT_AFTER_SIGN_IN = '/projects';

export function safeRedirect(target: string | undefined): string {
  if (target === undefined) return DEFAULT_AFTER_SIGN_IN;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return DEFAULT_AFTER_SIGN_IN;
  }
  // Control characters and whitespace can turn a path into something a browser reads differently.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s\\]/.test(target)) return DEFAULT_AFTER_SIGN_IN;
  if (target === '/sign-in' || target.startsWith('/sign-in?') || target.startsWith('/sign-in#')) {
    return DEFAULT_AFTER_SIGN_IN;
  }
  return target;
}
