/**
 * Characters that change the direction of the text around them (Unicode bidi controls).
 * Telemetry is written by applications and attackers alike: `report\u202Efdp.exe` shows as
 * `reportexe.pdf`. The console shows each control as a visible token instead of applying it.
 */
export const BIDI_CONTROLS: Readonly<Record<string, { short: string; name: string }>> = {
  '\u061C': { short: 'ALM', name: 'ARABIC LETTER MARK' },
  '\u200E': { short: 'LRM', name: 'LEFT-TO-RIGHT MARK' },
  '\u200F': { short: 'RLM', name: 'RIGHT-TO-LEFT MARK' },
  '\u202A': { short: 'LRE', name: 'LEFT-TO-RIGHT EMBEDDING' },
  '\u202B': { short: 'RLE', name: 'RIGHT-TO-LEFT EMBEDDING' },
  '\u202C': { short: 'PDF', name: 'POP DIRECTIONAL FORMATTING' },
  '\u202D': { short: 'LRO', name: 'LEFT-TO-RIGHT OVERRIDE' },
  '\u202E': { short: 'RLO', name: 'RIGHT-TO-LEFT OVERRIDE' },
  '\u2066': { short: 'LRI', name: 'LEFT-TO-RIGHT ISOLATE' },
  '\u2067': { short: 'RLI', name: 'RIGHT-TO-LEFT ISOLATE' },
  '\u2068': { short: 'FSI', name: 'FIRST STRONG ISOLATE' },
  '\u2069': { short: 'PDI', name: 'POP DIRECTIONAL ISOLATE' },
};

const CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export type BidiControl = { char: string; short: string; name: string; codePoint: string };
export type BidiPart = { text: string } | { control: BidiControl };

export function hasBidiControls(text: string): boolean {
  return CONTROL.test(text);
}

function controlOf(char: string): BidiControl {
  const known = BIDI_CONTROLS[char] ?? { short: '?', name: 'BIDI CONTROL' };
  const codePoint = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  return { char, ...known, codePoint };
}

/** The text as runs of plain text and the controls between them, in order. */
export function splitBidiControls(text: string): BidiPart[] {
  const parts: BidiPart[] = [];
  let last = 0;
  for (const m of text.matchAll(CONTROLS)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    parts.push({ control: controlOf(m[0]) });
    last = m.index + 1;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/**
 * For places that hold plain text only (an `<option>`, a `title`, an accessible name): each
 * control replaced by a visible `⟨RLO⟩` token.
 */
export function markBidiControls(text: string): string {
  if (!hasBidiControls(text)) return text;
  return text.replace(CONTROLS, (c) => `⟨${controlOf(c).short}⟩`);
}

/** What a marker's tooltip says about one control. */
export function bidiControlTitle(control: BidiControl): string {
  return `${control.codePoint} ${control.name}: a text-direction control in the text as it was sent, shown here instead of being applied (it could make the text read differently from what it is).`;
}
