/** What a span is in its trace (OpenTelemetry's span kinds). */
export const SPAN_KINDS = ['server', 'client', 'internal', 'producer', 'consumer'] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];
