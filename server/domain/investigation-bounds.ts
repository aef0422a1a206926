/**
 * The documented limits of every investigation bundle and the helpers that keep a bundle
 * inside them whatever the data (10k-character messages, huge stacks, thousands of logs on
 * one trace). One module, so every bundle cuts the same way and reports it the same way.
 */
export const BUNDLE_LIMITS = {
  /** Frames of one stack (the first, innermost-first as the SDK sent them). */
  stack_frames: 20,
  /** Breadcrumbs of one occurrence (the last ones: nearest to the error). */
  breadcrumbs: 50,
  /** Logs of one trace (newest first). */
  logs: 50,
  /** Error spans of one trace (earliest first). */
  error_spans: 100,
  /** Spans of the slowest path of a trace (from the root). */
  slowest_path: 50,
  /** Projects, services, releases, environments listed in a trace summary. */
  trace_services: 20,
  /** Issues carrying a trace, issues of a release. */
  issues: 20,
  /** Deployments of a release, or in a metric's range. */
  deployments: 20,
  /** Release rows of a release or in a metric's range. */
  releases: 20,
  /** Ancestors of a span, from its parent up. */
  parent_chain: 50,
  /** Events of one span. */
  span_events: 20,
  /** Actions of the same session on each side of an action. */
  session_neighbours: 10,
  /** Characters of a message, stack header, status message or breadcrumb message. */
  text_chars: 1000,
  /** Characters of one stack frame line or a name (span, action, title). */
  line_chars: 300,
  /** Keys kept of one attribute object (per level) and items of one array. */
  attribute_keys: 50,
  /** Levels of nesting kept inside attributes. */
  attribute_depth: 4,
  /** Characters of one string inside attributes. */
  attribute_chars: 256,
} as const;

/** Counts what a section cut while a bundle is built. */
export type CutCounter = { strings: number; values: number };

export const newCounter = (): CutCounter => ({ strings: 0, values: 0 });

/** At most `max` characters (code points are not split: surrogate pairs kept whole). */
export function clip(value: string, max: number, cut: CutCounter): string {
  if (value.length <= max) return value;
  cut.strings += 1;
  let end = max;
  const code = value.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return value.slice(0, end);
}

export const clipOrNull = (value: string | null, max: number, cut: CutCounter) =>
  value === null ? null : clip(value, max, cut);

/**
 * Attributes, properties and breadcrumb data with bounded size: at most `attribute_keys`
 * keys per object (and items per array), `attribute_depth` levels, `attribute_chars`
 * characters per string. Whatever is left out is counted in `cut`.
 */
export function boundValue(value: unknown, cut: CutCounter, depth = 0): unknown {
  const L = BUNDLE_LIMITS;
  if (typeof value === 'string') return clip(value, L.attribute_chars, cut);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= L.attribute_depth) {
    cut.values += 1;
    return Array.isArray(value) ? [] : {};
  }
  if (Array.isArray(value)) {
    if (value.length > L.attribute_keys) cut.values += value.length - L.attribute_keys;
    return value.slice(0, L.attribute_keys).map((v) => boundValue(v, cut, depth + 1));
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > L.attribute_keys) cut.values += entries.length - L.attribute_keys;
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries.slice(0, L.attribute_keys))
    out[clip(k, L.attribute_chars, cut)] = boundValue(v, cut, depth + 1);
  return out;
}

export const boundRecord = (value: Record<string, unknown>, cut: CutCounter) =>
  boundValue(value, cut) as Record<string, unknown>;

/**
 * A stack trace as a header (the first line: exception type and message) and frame lines.
 * Frames are the following non-blank lines, whatever the language's format.
 */
export function splitStack(
  stack: string,
  cut: CutCounter,
): { header: string; frames: string[]; totalFrames: number } {
  const lines = stack.split(/\r?\n/);
  const header = clip((lines[0] ?? '').trim(), BUNDLE_LIMITS.text_chars, cut);
  const all = lines.slice(1).filter((l) => l.trim() !== '');
  const frames = all
    .slice(0, BUNDLE_LIMITS.stack_frames)
    .map((l) => clip(l.trim(), BUNDLE_LIMITS.line_chars, cut));
  return { header, frames, totalFrames: all.length };
}
