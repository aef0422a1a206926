import { z } from '@hono/zod-openapi';
import { DEPLOYMENT_ID } from '../domain/deployment-id';
import { PROJECT_IDS_MAX, PROJECT_IDS_MIN } from '../domain/read-rules/project-scope';
import { RELATIVE_SINCE } from '../domain/read-rules/time-range';
import { UUID_SOURCE } from '../domain/read-rules/uuid';
import { TRACE_ID } from '../domain/trace-ids';

/**
 * The documented schemas of query keys. A query value is always text on the wire; the
 * facets here (format, pattern, enum, integer bounds) say which texts the key's read rule
 * accepts, in JSON Schema, so `server/openapi.json` states what the handler enforces. The
 * rules themselves run in the route's `readQuery` (read-query.ts); the drift test
 * (routes/query-contract.test.ts) proves that both accept the same values.
 */
export type Facets = Readonly<Record<string, unknown>>;

/** zod-to-openapi types its metadata as an OpenAPI schema object; these are JSON Schema facets. */
const doc = (description: string, facets: Facets) =>
  ({ description, ...facets }) as unknown as { description: string };

/** An optional key; `facets` state which values its rule accepts. */
export const key = (description: string, facets: Facets = {}) =>
  z.string().optional().openapi(doc(description, facets));

/** A required key (missing: `invalid query parameters: <key>: …`). */
export const requiredKey = (description: string, facets: Facets = {}) =>
  z.string().openapi(doc(description, facets));

/** A UUID, either case (spec "Conventions"). */
export const UUID_FACETS: Facets = { format: 'uuid', pattern: `^${UUID_SOURCE}$` };

/** `project_ids`: 2 to 50 comma-separated UUIDs, no id twice (compared lowercased). */
export const PROJECT_IDS_FACETS: Facets = {
  pattern: `^${UUID_SOURCE}(,${UUID_SOURCE}){${PROJECT_IDS_MIN - 1},${PROJECT_IDS_MAX - 1}}$`,
  'x-distinct-items': true,
};

/**
 * `since` on routes whose range is at most 31 days: `1h` to `744h` or `1d` to `31d`, or an
 * RFC3339 timestamp (how far back that reaches is the range rule's; JSON Schema cannot say).
 */
export const SINCE_31_DAYS_FACETS: Facets = {
  anyOf: [
    {
      type: 'string',
      pattern: '^(([1-9]|[12][0-9]|3[01])d|([1-9][0-9]?|[1-6][0-9]{2}|7[0-3][0-9]|74[0-4])h)$',
    },
    { type: 'string', format: 'date-time' },
  ],
};

/** An RFC3339 timestamp with a real date and time (seconds 00 to 59). */
export const TIMESTAMP_FACETS: Facets = { format: 'date-time' };

/** `since`: `<n>h`, `<n>d` (1 to 6 digits, no leading zero) or an RFC3339 timestamp. */
export const SINCE_FACETS: Facets = {
  anyOf: [
    { type: 'string', pattern: RELATIVE_SINCE.source },
    { type: 'string', format: 'date-time' },
  ],
};

/** An exact-match filter: any text but a blank one (spec "Telemetry reads"). */
export const EXACT_FACETS: Facets = { pattern: '\\S' };

/** A deployment id (spec "Conventions"; domain/deployment-id.ts). */
export const DEPLOYMENT_ID_FACETS: Facets = { pattern: DEPLOYMENT_ID.source };

/**
 * An integer written in decimal digits, from `minimum` to `maximum`; `default` when absent.
 * The value stays text (a query value is; the console's generated client sends it as such),
 * so the bounds are stated as `x-minimum` and `x-maximum`, which JSON Schema would ignore on
 * a string as `minimum` and `maximum`.
 */
export const integerFacets = (bounds: {
  minimum: number;
  maximum?: number;
  default?: number;
  /** The most digits the rule reads (leading zeros count). */
  digits?: number;
}): Facets => ({
  pattern: bounds.digits === undefined ? '^[0-9]+$' : `^[0-9]{1,${bounds.digits}}$`,
  'x-minimum': bounds.minimum,
  ...(bounds.maximum === undefined ? {} : { 'x-maximum': bounds.maximum }),
  ...(bounds.default === undefined ? {} : { default: String(bounds.default) }),
});

/** One of a closed set of texts, checked by a read rule (its own error text). */
export const enumFacets = (values: readonly string[]): Facets => ({ enum: [...values] });

/** A trace id as ingestion stores it: 32 lowercase hex characters. */
export const TRACE_ID_FACETS: Facets = { pattern: TRACE_ID.source };
