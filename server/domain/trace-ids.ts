/**
 * Trace and span ids as ingestion stores them (spec "Conventions"): lowercase hex, 32 and 16
 * characters. Ingest refuses any other text, so reads refuse it too rather than answer a
 * filter that can match nothing with an empty result.
 */
export const TRACE_ID = /^[0-9a-f]{32}$/;
export const SPAN_ID = /^[0-9a-f]{16}$/;
