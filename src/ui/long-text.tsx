import { useState } from 'react';
import { buttonClass } from './button';
import { TelemetryText } from './telemetry-text';

/**
 * Characters of an application value shown before "Show all": a 1 MiB attribute laid out
 * whole is thousands of lines, and every value after it is out of reach.
 */
export const LONG_TEXT_CHARS = 2_000;

/** The first `max` UTF-16 units, one less where the cut would split a surrogate pair. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** A long value cut to its start, with a button that shows the whole of it. */
export function LongText({ text }: { text: string }) {
  const [whole, setWhole] = useState(false);
  if (whole || text.length <= LONG_TEXT_CHARS) return <TelemetryText text={text} />;
  return (
    <>
      {/* Its own element: a bidi override in the value must not move the button. */}
      <span>
        <TelemetryText text={clipText(text, LONG_TEXT_CHARS)} />…
      </span>{' '}
      <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setWhole(true)}>
        Show all {text.length.toLocaleString('en-US')} characters
      </button>
    </>
  );
}
