import { TelemetryText } from '../../ui/telemetry-text';
import { useMemo } from 'react';
import { innermostFirst, parseStackTrace, type StackFrame } from '../../lib/stack-frames';
import { Button } from '../../ui/button';
import styles from './stack-trace-view.module.css';
import type { StackView } from './issue-search';

type Run = { inApp: true; frame: StackFrame } | { inApp: false; frames: StackFrame[] };

/** Frames in runs: each application frame alone, consecutive library frames together. */
function runsOf(frames: StackFrame[]): Run[] {
  const runs: Run[] = [];
  for (const frame of frames) {
    const last = runs.at(-1);
    if (frame.inApp) runs.push({ inApp: true, frame });
    else if (last && !last.inApp) last.frames.push(frame);
    else runs.push({ inApp: false, frames: [frame] });
  }
  return runs;
}

/**
 * A stack trace as frames, innermost (where it failed) first. Application frames stand out;
 * runs of library frames fold into one line that opens. "Raw" shows the text as sent. All
 * of it is text: nothing in a stack is markup or a link. The view (`frames`, `all` frames
 * unfolded, `raw`) is the page's to keep (in its URL); a stack not read as frames is raw.
 */
export function StackTraceView({
  text,
  exceptionLine,
  view,
  onViewChange,
}: {
  text: string;
  /** `Type: value`, already shown above the stack: not repeated under the frames. */
  exceptionLine: string;
  view: StackView;
  onViewChange: (view: StackView) => void;
}) {
  const parsed = useMemo(() => parseStackTrace(text), [text]);
  const otherLines = parsed.header.filter(
    (l) => l.trim() !== exceptionLine && l.trim() !== 'Traceback (most recent call last):',
  );
  const frames = useMemo(() => innermostFirst(parsed), [parsed]);
  const raw = parsed.frames.length === 0 || view === 'raw';
  const expanded = view === 'all';
  const setExpanded = (all: boolean) => onViewChange(all ? 'all' : 'frames');
  const inApp = frames.filter((f) => f.inApp).length;

  return (
    <div className={styles.stack}>
      <div className={styles.stackBar}>
        <span className={styles.stackMeta}>
          {parsed.frames.length === 0
            ? 'Stack trace (not in a format the console reads as frames)'
            : `${frames.length} frames · ${inApp} in app · most recent call first`}
        </span>
        {parsed.frames.length > 0 && (
          <span className={styles.stackTools}>
            {!raw && frames.length > inApp && (
              <Button size="sm" variant="ghost" onClick={() => setExpanded(!expanded)}>
                {expanded ? 'Fold library frames' : 'Show all frames'}
              </Button>
            )}
            <Button
              size="sm"
              variant="ghost"
              aria-pressed={raw}
              onClick={() => onViewChange(raw ? 'frames' : 'raw')}
            >
              {raw ? 'Frames' : 'Raw'}
            </Button>
          </span>
        )}
      </div>
      {raw ? (
        <pre className={styles.rawStack}>{text}</pre>
      ) : (
        <ol className={styles.frames} aria-label="Stack frames">
          {runsOf(frames).map((run, i) =>
            run.inApp ? (
              <FrameRow key={i} frame={run.frame} />
            ) : expanded ? (
              run.frames.map((f, j) => <FrameRow key={`${i}-${j}`} frame={f} />)
            ) : (
              <li key={i} className={styles.folded}>
                <button
                  type="button"
                  className={styles.foldButton}
                  onClick={() => setExpanded(true)}
                >
                  {run.frames.length === 1
                    ? '1 library frame'
                    : `${run.frames.length} library frames`}
                  <span className={styles.foldFiles}>
                    {[...new Set(run.frames.map((f) => f.file ?? f.fn ?? ''))]
                      .slice(0, 2)
                      .join(', ')}
                  </span>
                </button>
              </li>
            ),
          )}
        </ol>
      )}
      {!raw && otherLines.length > 0 && (
        <pre className={styles.stackHeader} aria-label="Other lines of the stack trace">
          {otherLines.join('\n')}
        </pre>
      )}
    </div>
  );
}

function FrameRow({ frame }: { frame: StackFrame }) {
  const location = [
    frame.line !== null ? `line ${frame.line}` : null,
    frame.column !== null ? `col ${frame.column}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <li className={styles.frame} data-in-app={frame.inApp || undefined}>
      <div className={styles.frameHead}>
        <span className={styles.frameFile}>
          {frame.file !== null ? <TelemetryText text={frame.file} /> : '(unknown file)'}
        </span>
        {frame.fn && (
          <>
            <span className={styles.frameIn}>in</span>
            <span className={styles.frameFn}>
              <TelemetryText text={frame.fn} />
            </span>
          </>
        )}
        {location && <span className={styles.frameLoc}>{location}</span>}
        {frame.inApp && <span className={styles.inAppMark}>In app</span>}
      </div>
      {frame.code && (
        <pre className={styles.frameCode}>
          <TelemetryText text={frame.code} />
        </pre>
      )}
    </li>
  );
}
