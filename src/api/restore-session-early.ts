import { restoreSession } from './session-restore';

// Imported first by main.tsx: the cookie exchange starts before the router is built and the
// first page's code loaded, instead of after (the first page's reads all wait for it).
// The sign-in page needs no session, so it does not ask.
if (window.location.pathname !== '/sign-in') void restoreSession();
