import { TRACE_ID } from '../trace-ids';
import { invalid } from './read-rule-error';

/** The next step of a refused trace id filter. */
export const TRACE_ID_FILTER_NEXT =
  'Send the 32-character lowercase hex trace_id exactly as a span or log carries it, or omit the filter.';

/**
 * A `trace_id` filter: absent, or a trace id as ingestion accepts it. Any other text is a
 * wrongly typed value (spec "Common read rules" 1), not a filter that matches nothing.
 */
export function traceIdFilter(value: string | undefined, key = 'trace_id'): string | null {
  if (value === undefined) return null;
  if (!TRACE_ID.test(value))
    throw invalid(`${key} must be 32 lowercase hex characters`, TRACE_ID_FILTER_NEXT);
  return value;
}
