import { Fragment } from 'react';
import { displayKeys, KEY_SEPARATOR } from '../lib/json-pointer';
import styles from './attribute-path.module.css';

/**
 * An attribute path (a JSON Pointer) as a person reads it: each key as written and the nesting
 * mark set apart (`k8s › app.kubernetes.io/name`). Its text is `displayPointer(pointer)`, so
 * labels and sentences built from that read the same.
 */
export function AttributePath({ pointer, className }: { pointer: string; className?: string }) {
  const keys = displayKeys(pointer);
  if (keys === null) return <span className={className}>{pointer}</span>;
  return (
    <span className={className}>
      {keys.map((key, i) => (
        <Fragment key={i}>
          {i > 0 && <span className={styles.separator}>{KEY_SEPARATOR}</span>}
          {key}
        </Fragment>
      ))}
    </span>
  );
}
