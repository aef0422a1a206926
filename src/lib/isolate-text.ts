import { markBidiControls } from './bidi-controls';

/**
 * Application text for places that hold plain text only (an `<option>`): each bidi control
 * in it shown as a visible token (`⟨RLO⟩`, see `markBidiControls`) instead of applied, and the
 * whole wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, the text form of `<bdi>`,
 * so right-to-left words in it never move the console's words after it.
 */
export const isolateText = (text: string): string => `\u2068${markBidiControls(text)}\u2069`;
