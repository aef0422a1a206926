/**
 * How a metric series turns the samples of one bucket into one value, by the metric's kind:
 * a gauge or histogram sample is a measurement, so the bucket shows their mean; a counter
 * sample is an increment (delta), so the bucket shows their sum; a cumulative counter already
 * carries the running total, so the bucket shows its largest (latest) value.
 */
export type Aggregation = 'avg' | 'sum' | 'max';

export function aggregationOf(
  kind: 'counter' | 'gauge' | 'histogram',
  temporality: 'delta' | 'cumulative' | null,
): Aggregation {
  if (kind !== 'counter') return 'avg';
  return temporality === 'cumulative' ? 'max' : 'sum';
}

export function aggregate(
  aggregation: Aggregation,
  cell: { samples: number; sum: number; max: number },
): number {
  if (aggregation === 'sum') return cell.sum;
  if (aggregation === 'max') return cell.max;
  return cell.sum / cell.samples;
}
