import { Fragment, type ReactNode } from 'react';
import { bidiControlTitle, hasBidiControls, splitBidiControls } from '../lib/bidi-controls';
import styles from './telemetry-text.module.css';

/**
 * Text written by an application (a log message, an attribute, an issue title, a span name):
 * as text, with every bidi control shown as a marked token (`⟨RLO⟩`, its tooltip saying what
 * it is) instead of being applied, so the text cannot read differently from what was sent.
 * Text without controls is returned as it is (no element added); text with them is one span.
 */
export function TelemetryText({ text }: { text: string }): ReactNode {
  if (!hasBidiControls(text)) return text;
  // One element around the parts: in a flex or grid container they stay one run of text.
  return <span>{parts(text)}</span>;
}

function parts(text: string): ReactNode[] {
  return splitBidiControls(text).map((part, i) =>
    'text' in part ? (
      <Fragment key={i}>{part.text}</Fragment>
    ) : (
      <abbr
        key={i}
        className={styles.control}
        title={bidiControlTitle(part.control)}
        data-bidi-control={part.control.codePoint}
      >
        ⟨{part.control.short}⟩
      </abbr>
    ),
  );
}
