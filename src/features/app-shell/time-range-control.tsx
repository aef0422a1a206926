import { getRouteApi } from '@tanstack/react-router';
import { parseTimeRange, serializeTimeRange } from '../../lib/time-range';
import { TimeRangePicker } from '../../ui/time-range-picker';
import { useChangeScope } from './use-change-scope';

const appRoute = getRouteApi('/_app');

/** The time-range picker, kept in the layout's URL search (`since`, `until`). */
export function TimeRangeControl() {
  const search = appRoute.useSearch();
  const changeScope = useChangeScope();
  return (
    <TimeRangePicker
      value={parseTimeRange(search)}
      onChange={(range) => {
        const next = serializeTimeRange(range);
        changeScope('range', { since: next.since, until: next.until });
      }}
    />
  );
}
