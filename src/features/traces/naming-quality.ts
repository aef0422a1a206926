import type { TraceNamingQuality } from '../../api/queries/traces';

export type NamingRule = {
  key: 'meaningful' | 'generic_name' | 'unmatched_route' | 'generic_operation';
  label: string;
  count: number;
  /** Whether a count above zero is something to fix. */
  problem: boolean;
  /** The rule, in a line (the service's `TraceNamingQuality` description). */
  rule: string;
};

/** The page's counts as the panel lists them, each with the rule that decides it. */
export function namingRules(q: TraceNamingQuality): NamingRule[] {
  return [
    {
      key: 'meaningful',
      label: 'Meaningful names',
      count: q.meaningful_name_traces,
      problem: false,
      rule: 'No span has a generic name or an unmatched route.',
    },
    {
      key: 'generic_name',
      label: 'Generic names',
      count: q.generic_name_traces,
      problem: true,
      rule: 'A bare HTTP method (GET) or a placeholder (handler, span…).',
    },
    {
      key: 'unmatched_route',
      label: 'Unmatched routes',
      count: q.unmatched_route_traces,
      problem: true,
      rule: 'An HTTP server span without http.route, or a raw path with an id.',
    },
    {
      key: 'generic_operation',
      label: 'Generic operations',
      count: q.generic_operation_traces,
      problem: true,
      rule: 'An operation such as default, unknown or custom.',
    },
  ];
}

/**
 * What the panel advises, from the service's `next_action`: only the pair the console knows
 * is followed (`improve_trace_naming` / `sdk_configuration`); `null` means the names look
 * good; any other action is not acted on.
 */
export type NamingAdvice = 'improve' | 'good' | 'none';

export function namingAdvice(q: TraceNamingQuality): NamingAdvice {
  const action = q.next_action;
  if (action === null) return 'good';
  if (action.code === 'improve_trace_naming' && action.target === 'sdk_configuration') {
    return 'improve';
  }
  return 'none';
}

/** `Naming quality of these 100 traces`: the page's score, never the account's. */
export function namingHeading(q: TraceNamingQuality): string {
  const n = q.evaluated_traces;
  return `Naming quality of ${n === 1 ? 'this trace' : `these ${n.toLocaleString('en-US')} traces`}`;
}
