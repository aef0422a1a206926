import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  customTimeRange,
  isSameRange,
  TIME_RANGE_PRESETS,
  timeRangeLabel,
  toDateTimeLocalUtc,
  toRfc3339Since,
  type TimeRange,
} from '../lib/time-range';
import { Button } from './button';
import { ClockIcon } from './icons';
import { PickerPopover } from './picker-popover';
import popover from './popover.module.css';
import styles from './time-range-picker.module.css';

/** Chooses a relative preset or a custom absolute range (entered and shown in UTC). */
export function TimeRangePicker({
  value,
  onChange,
}: {
  value: TimeRange;
  onChange: (range: TimeRange) => void;
}) {
  const [open, setOpen] = useState(false);
  const label = timeRangeLabel(value);
  return (
    <PickerPopover
      name="Time range"
      label={label}
      icon={<ClockIcon />}
      panelClassName={styles.panel}
      open={open}
      onOpenChange={setOpen}
    >
      {open && (
        <TimeRangePanel
          value={value}
          onChange={(range) => {
            onChange(range);
            setOpen(false);
          }}
        />
      )}
    </PickerPopover>
  );
}

function TimeRangePanel({
  value,
  onChange,
}: {
  value: TimeRange;
  onChange: (range: TimeRange) => void;
}) {
  const id = useId();
  const [initial] = useState(() => {
    const now = Date.now();
    const since = toRfc3339Since(value, now);
    const until =
      value.kind === 'absolute' && value.until !== undefined
        ? value.until
        : new Date(now).toISOString();
    return { since: toDateTimeLocalUtc(since), until: toDateTimeLocalUtc(until) };
  });
  const [since, setSince] = useState(initial.since);
  const [until, setUntil] = useState(initial.until);
  const [problem, setProblem] = useState<string | null>(null);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const result = customTimeRange(since, until);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    onChange(result.range);
  };

  return (
    <>
      <p className={popover.sectionLabel} id={`${id}-presets`}>
        Relative
      </p>
      <PresetList value={value} onChange={onChange} labelledBy={`${id}-presets`} />
      <div className={popover.separator} />
      <form className={styles.custom} onSubmit={apply} noValidate>
        <p className={popover.sectionLabel}>Custom range (UTC)</p>
        <div className={styles.inputs}>
          <label className={styles.field}>
            <span>From (UTC)</span>
            <input
              type="datetime-local"
              value={since}
              onChange={(e) => {
                setSince(e.target.value);
                setProblem(null);
              }}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
            />
          </label>
          <label className={styles.field}>
            <span>To (UTC)</span>
            <input
              type="datetime-local"
              value={until}
              onChange={(e) => {
                setUntil(e.target.value);
                setProblem(null);
              }}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
            />
          </label>
        </div>
        {problem ? (
          <p className={styles.problem} id={`${id}-problem`} role="alert">
            {problem}
          </p>
        ) : (
          <p className={styles.hint} id={`${id}-hint`}>
            Leave “To” empty to read up to now.
          </p>
        )}
        <div className={styles.apply}>
          <Button type="submit" variant="primary" size="sm">
            Apply range
          </Button>
        </div>
      </form>
    </>
  );
}

/**
 * The presets as a listbox: arrow keys move between options, Enter or Space chooses one,
 * a click chooses one. Only the selected option is in the tab order.
 */
function PresetList({
  value,
  onChange,
  labelledBy,
}: {
  value: TimeRange;
  onChange: (range: TimeRange) => void;
  labelledBy: string;
}) {
  const selectedIndex = TIME_RANGE_PRESETS.findIndex((p) => isSameRange(p.range, value));
  const tabbable = selectedIndex === -1 ? 0 : selectedIndex;

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const options = Array.from(
      event.currentTarget.querySelectorAll<HTMLElement>('[role="option"]'),
    );
    const current = options.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      options[(to + options.length) % options.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(current + 1);
    else if (event.key === 'ArrowUp') move(current - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(options.length - 1);
  };

  return (
    <ul
      className={styles.presets}
      role="listbox"
      aria-labelledby={labelledBy}
      onKeyDown={onKeyDown}
    >
      {TIME_RANGE_PRESETS.map((preset, index) => (
        <li
          key={preset.compact}
          role="option"
          aria-selected={index === selectedIndex}
          tabIndex={index === tabbable ? 0 : -1}
          className={styles.preset}
          onClick={() => onChange(preset.range)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === ' ') {
              event.preventDefault();
              onChange(preset.range);
            }
          }}
        >
          <span>{timeRangeLabel(preset.range)}</span>
          <span className={styles.compact} aria-hidden="true">
            {preset.compact}
          </span>
        </li>
      ))}
    </ul>
  );
}
