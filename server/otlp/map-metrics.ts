import type { MetricItemInput } from '../ingest/item-schemas';
import type { OtlpAdmission } from './otlp-admission';
import type {
  OtlpCountSumPoint,
  OtlpMetric,
  OtlpMetricsRequest,
  OtlpNumberPoint,
  OtlpScope,
} from './otlp-messages';
import { resourceContext, type ResourceContext } from './otlp-resource';
import { attributes, IdMinter, isoOf, msOf, RecordRejection } from './otlp-values';

type Temporality = 'delta' | 'cumulative' | null;
const temporalityOf = (t: number): Temporality =>
  t === 1 ? 'delta' : t === 2 ? 'cumulative' : null;

/** One Lookout sample to be made from a data point. */
type Sample = Pick<MetricItemInput, 'name' | 'kind' | 'temporality' | 'unit'> & { value: number };

/**
 * The samples of one data point, by the metric's type:
 * - gauge: one `gauge` sample;
 * - sum: a monotonic sum is a `counter` with its temporality; a non-monotonic cumulative sum
 *   (an up-down counter) is a level, so a `gauge`; a non-monotonic delta sum is a `counter`
 *   whose increments may be negative;
 * - histogram, exponential histogram, summary: `<name>.count` and `<name>.sum` counters with
 *   the point's temporality (a summary is cumulative), the sum in the metric's unit; buckets
 *   and quantiles are not kept.
 */
function samplesOf(metric: OtlpMetric, point: OtlpNumberPoint | OtlpCountSumPoint): Sample[] {
  const unit = metric.unit.trim() || null;
  const number = () => {
    const p = point as OtlpNumberPoint;
    const v = p.value === 'asInt' ? Number(p.asInt) : p.value === 'asDouble' ? p.asDouble : null;
    if (v === null || v === undefined) throw new RecordRejection('the data point has no value');
    if (!Number.isFinite(v)) throw new RecordRejection(`the value ${String(v)} is not finite`);
    return v;
  };
  const countSum = (temporality: Temporality): Sample[] => {
    const p = point as OtlpCountSumPoint;
    const count: Sample = {
      name: `${metric.name}.count`,
      kind: 'counter',
      temporality,
      unit: null,
      value: Number(p.count),
    };
    if (p.sum === null || p.sum === undefined) return [count];
    return [
      count,
      { name: `${metric.name}.sum`, kind: 'counter', temporality, unit, value: p.sum },
    ];
  };
  switch (metric.data) {
    case 'gauge':
      return [{ name: metric.name, kind: 'gauge', temporality: null, unit, value: number() }];
    case 'sum': {
      const temporality = temporalityOf(metric.sum?.aggregationTemporality ?? 0);
      const level = metric.sum?.isMonotonic === false && temporality === 'cumulative';
      return [
        {
          name: metric.name,
          kind: level ? 'gauge' : 'counter',
          temporality,
          unit,
          value: number(),
        },
      ];
    }
    case 'histogram':
      return countSum(temporalityOf(metric.histogram?.aggregationTemporality ?? 0));
    case 'exponentialHistogram':
      return countSum(temporalityOf(metric.exponentialHistogram?.aggregationTemporality ?? 0));
    case 'summary':
      return countSum('cumulative');
    default:
      throw new RecordRejection('the metric has no data');
  }
}

function pointsOf(metric: OtlpMetric): (OtlpNumberPoint | OtlpCountSumPoint)[] {
  switch (metric.data) {
    case 'gauge':
      return metric.gauge?.dataPoints ?? [];
    case 'sum':
      return metric.sum?.dataPoints ?? [];
    case 'histogram':
      return metric.histogram?.dataPoints ?? [];
    case 'exponentialHistogram':
      return metric.exponentialHistogram?.dataPoints ?? [];
    case 'summary':
      return metric.summary?.dataPoints ?? [];
    default:
      return [];
  }
}

/** Data points to metric samples; the rejected count is of data points, as OTLP counts them. */
export function mapMetrics(request: OtlpMetricsRequest, admission: OtlpAdmission): void {
  const ids = new IdMinter();
  request.resourceMetrics.forEach((rm, r) => {
    let ctx: ResourceContext | null = null;
    rm.scopeMetrics.forEach((sm, s) =>
      sm.metrics.forEach((metric, n) => {
        const at = `resourceMetrics[${r}].scopeMetrics[${s}].metrics[${n}]`;
        const points = pointsOf(metric);
        if (points.length === 0) {
          admission.guard(at, () => {
            throw new RecordRejection(`the metric ${metric.name} has no data points`);
          });
          return;
        }
        points.forEach((point, p) =>
          admission.guard(`${at}.dataPoints[${p}]`, () => {
            ctx ??= resourceContext(rm.resource);
            mapPoint(metric, point, sm.scope, ctx, `${at}.dataPoints[${p}]`, { ids, admission });
          }),
        );
      }),
    );
  });
}

function mapPoint(
  metric: OtlpMetric,
  point: OtlpNumberPoint | OtlpCountSumPoint,
  scope: OtlpScope,
  ctx: ResourceContext,
  at: string,
  m: { ids: IdMinter; admission: OtlpAdmission },
): void {
  const time = msOf(point.timeUnixNano);
  if (time === null) throw new RecordRejection('timeUnixNano is missing');
  const attrs = attributes(point.attributes);
  const attrsJson = JSON.stringify(attrs);
  const samples = samplesOf(metric, point);
  // One data point is one record for OTLP: its samples are admitted together.
  const items = samples.map((s) => ({
    ...s,
    id: m.ids.mint(
      'metric',
      ctx.key,
      scope?.name ?? '',
      s.name,
      attrsJson,
      point.startTimeUnixNano,
      point.timeUnixNano,
      String(s.value),
    ),
    occurred_at: isoOf(time),
    attributes: attrs,
  }));
  m.admission.metrics(items, ctx, at);
}
