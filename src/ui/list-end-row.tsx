import type { NextPageStatus } from '../lib/should-fetch-next-page';
import styles from './list-end-row.module.css';

/** A paged list's next page: its status and how to ask for it. */
export type NextPageState = NextPageStatus & { fetchNextPage: () => void };

/** What the rows are called, e.g. `{ one: 'issue', many: 'issues' }`. */
export type RowNoun = { one: string; many: string };

/** The last row of a paged list: loading more, a failed page with "Try again", or all loaded. */
export function ListEndRow({
  next,
  loaded,
  noun,
}: {
  next: NextPageState;
  loaded: number;
  noun: RowNoun;
}) {
  if (next.error) {
    return (
      <span className={styles.text} role="alert">
        The next page could not be loaded.{' '}
        <button type="button" className={styles.inlineAction} onClick={next.fetchNextPage}>
          Try again
        </button>
      </span>
    );
  }
  if (next.isFetchingNextPage || next.hasNextPage) {
    return <span className={styles.text}>Loading more {noun.many}…</span>;
  }
  return (
    <span className={styles.text}>
      {loaded === 1 ? `The only ${noun.one}` : `All ${loaded.toLocaleString('en-US')} ${noun.many}`}{' '}
      in this range and scope.
    </span>
  );
}
