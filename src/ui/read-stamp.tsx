import { formatAge } from '../lib/format-age';
import { formatUtcDateTime, formatUtcTime } from '../lib/format-time';
import { Button } from './button';
import styles from './read-stamp.module.css';
import { useTickingNow } from './use-ticking-now';

/**
 * When what is on screen was read from the service, "Read 14:05:09 UTC · 12 s ago", and a way
 * to read it again now: others' changes reach the console only through reads, so a person can
 * tell how fresh the rows are. It ticks on its own, without re-rendering the page around it.
 */
export function ReadStamp({
  readAt,
  reading,
  onReadAgain,
}: {
  /** When the data was read (epoch ms). */
  readAt: number;
  /** A read is on its way. */
  reading: boolean;
  onReadAgain: () => void;
}) {
  const now = useTickingNow(1_000);
  const iso = new Date(readAt).toISOString();
  return (
    <span className={styles.stamp}>
      <span>
        Read{' '}
        <time dateTime={iso} title={formatUtcDateTime(iso)}>
          {formatUtcTime(iso)}
        </time>
        <span className={styles.age}>
          {' '}
          · {reading ? 'reading again…' : formatAge(now - readAt)}
        </span>
      </span>
      <Button size="sm" variant="ghost" onClick={onReadAgain}>
        Read again
      </Button>
    </span>
  );
}
