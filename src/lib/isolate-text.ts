/**
 * Application text for places that hold plain text only (an `<option>`): wrapped in FIRST
 * STRONG ISOLATE … POP DIRECTIONAL ISOLATE, the text form of `<bdi>`, so a bidi override in it
 * (U+202E) reorders only itself, never the console's words after it.
 */
export const isolateText = (text: string): string => `\u2068${text}\u2069`;
