/**
 * Stack traces as frames. The service sends `stack_trace` as text; this reads the common
 * shapes (JavaScript/V8, Python tracebacks, JVM) into frames, and keeps every other line as
 * it is so nothing is lost. Pure: no DOM, no formatting.
 */

export type StackFrame = {
  /** Function or method, when the line names one. */
  fn: string | null;
  /** File, module path or class file. */
  file: string | null;
  line: number | null;
  column: number | null;
  /** The source line a Python traceback prints under the frame. */
  code: string | null;
  /** Application code (not a dependency, the runtime or the standard library). */
  inApp: boolean;
  /** The line as sent. */
  raw: string;
};

export type ParsedStack = {
  platform: 'javascript' | 'python' | 'jvm' | 'unknown';
  /** Lines that are not frames: the exception line, "Caused by", "Traceback…". */
  header: string[];
  /** Frames in the order the trace prints them. */
  frames: StackFrame[];
};

const NOT_IN_APP: readonly RegExp[] = [
  /(^|[/\\])node_modules[/\\]/,
  /^node:/,
  /^internal[/\\]/,
  /(^|[/\\])(site|dist)-packages[/\\]/,
  /(^|[/\\])lib[/\\]python\d(\.\d+)?[/\\]/,
  /^<frozen /,
  /^(java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|android|androidx|dalvik|okhttp3|org\.springframework|org\.apache|io\.netty)\./,
];

/** Whether a frame's file (or JVM qualified function) is application code. */
export function isInApp(file: string | null, fn: string | null = null): boolean {
  if (file === null && fn === null) return false;
  return !NOT_IN_APP.some((re) => (file !== null && re.test(file)) || (fn !== null && re.test(fn)));
}

const JS_WITH_FN = /^\s*at (?:async )?(.+?) \((.+?)(?::(\d+))?(?::(\d+))?\)\s*$/;
const JS_BARE = /^\s*at (?:async )?(.+?)(?::(\d+))(?::(\d+))?\s*$/;
const PY_FRAME = /^\s*File "(.+)", line (\d+)(?:, in (.+))?\s*$/;
/** `at com.acme.Cart.total(Cart.java:42)`, optionally with a module (`java.base/`). */
const JVM_FRAME =
  /^\s*at ((?:[\w.$-]+(?:@[\w.-]+)?\/)?([\w$]+(?:\.[\w$<>]+)+))\((.*?)(?::(\d+))?\)\s*$/;

const num = (s: string | undefined): number | null => (s === undefined ? null : Number(s));

function frame(
  fn: string | null,
  file: string | null,
  line: number | null,
  column: number | null,
  raw: string,
  inApp = isInApp(file, fn),
): StackFrame {
  return { fn, file, line, column, code: null, inApp, raw };
}

/** Reads a stack trace's text into frames; unknown shapes give no frames and keep the text. */
export function parseStackTrace(text: string): ParsedStack {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const header: string[] = [];
  const frames: StackFrame[] = [];
  let platform: ParsedStack['platform'] = 'unknown';
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (raw.trim() === '') continue;
    const py = PY_FRAME.exec(raw);
    if (py) {
      platform = 'python';
      const f = frame(py[3] ?? null, py[1] ?? null, num(py[2]), null, raw);
      const next = lines[i + 1];
      // The source line printed under the frame (indented, not another frame).
      if (next !== undefined && /^\s{4,}\S/.test(next) && !PY_FRAME.test(next)) {
        f.code = next.trim();
        i++;
      }
      frames.push(f);
      continue;
    }
    const jvm = JVM_FRAME.exec(raw);
    if (jvm) {
      const file = jvm[3] === '' ? null : (jvm[3] ?? null);
      // A JavaScript frame without a space before "(" names a path or a script file.
      if (!(file !== null && /[/\\]|^node:|\.m?[jt]sx?$/.test(file))) {
        platform = 'jvm';
        const method = jvm[2] ?? '';
        frames.push(frame(jvm[1] ?? method, file, num(jvm[4]), null, raw, isInApp(null, method)));
        continue;
      }
    }
    const js = JS_WITH_FN.exec(raw);
    if (js) {
      platform = 'javascript';
      frames.push(frame(js[1] ?? null, js[2] ?? null, num(js[3]), num(js[4]), raw));
      continue;
    }
    const bare = JS_BARE.exec(raw);
    if (bare) {
      platform = 'javascript';
      frames.push(frame(null, bare[1] ?? null, num(bare[2]), num(bare[3]), raw));
      continue;
    }
    header.push(raw);
  }
  return { platform: frames.length > 0 ? platform : 'unknown', header, frames };
}

/**
 * Frames with the most relevant first: Python prints the innermost call last, JavaScript and
 * the JVM first; the result always starts at the innermost (crashing) frame.
 */
export function innermostFirst(stack: ParsedStack): StackFrame[] {
  return stack.platform === 'python' ? [...stack.frames].reverse() : stack.frames;
}

/**
 * Where the error happened, as issue trackers show it under the title: the innermost
 * application frame (`fn (file:line)`), else the innermost frame, else null.
 */
export function culpritOf(stackTrace: string | null): string | null {
  if (!stackTrace) return null;
  const frames = innermostFirst(parseStackTrace(stackTrace));
  const f = frames.find((x) => x.inApp) ?? frames[0];
  if (!f) return null;
  const where = f.file ? `${f.file}${f.line !== null ? `:${f.line}` : ''}` : null;
  if (f.fn && where) return `${f.fn} (${where})`;
  return f.fn ?? where;
}
