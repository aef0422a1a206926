import { z } from 'zod/mini';
import { searchEnum } from '../../lib/search-fields';
import { USAGE_INTERVALS, type UsageInterval } from '../../api/queries/account';

export const HISTORY_SPLITS = ['total', 'stream', 'project'] as const;
export type HistorySplit = (typeof HISTORY_SPLITS)[number];

/** The usage page's URL: the history's interval and how its bars are split. */
export const usageSearchSchema = z.object({
  interval: searchEnum(USAGE_INTERVALS as [UsageInterval, ...UsageInterval[]]),
  split: searchEnum(HISTORY_SPLITS),
});

export type UsageSearch = z.infer<typeof usageSearchSchema>;

export const intervalOf = (search: UsageSearch): UsageInterval => search.interval ?? 'monthly';
export const splitOf = (search: UsageSearch): HistorySplit => search.split ?? 'total';
