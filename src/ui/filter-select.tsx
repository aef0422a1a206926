import type { ComponentProps } from 'react';
import styles from './filter-field.module.css';

/** A filter bar's select; accent-bordered unless `empty` (it does not narrow the list). */
export function FilterSelect({
  empty,
  className,
  ...props
}: ComponentProps<'select'> & { empty: boolean }) {
  return (
    <select
      {...props}
      className={className ? `${styles.select} ${className}` : styles.select}
      data-empty={empty || undefined}
    />
  );
}
