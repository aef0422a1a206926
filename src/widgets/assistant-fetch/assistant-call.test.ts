import { describe, expect, it } from 'vitest';
import { investigationQueries } from '../../api/queries/investigations';
import { assistantCallOf, formatAssistantCall } from './assistant-call';

const ISSUE = '3b00d682-0a04-4b68-84cd-9ef4df4c98b6';
const TRACE = 'a'.repeat(32);
const SPAN = 'b'.repeat(16);
const PROJECT = '63576732-7d64-431d-b98d-0bed1e90eb7e';

/** Each investigation query says which MCP tool reads the same bundle, with its arguments. */
describe('the MCP tool call of each investigation', () => {
  it.each([
    [
      investigationQueries.issue(ISSUE, { selection: 'recommended' }),
      { tool: 'get_issue', args: { issue_id: ISSUE, selection: 'recommended' } },
    ],
    [
      investigationQueries.issue(ISSUE, { occurrence_id: PROJECT }),
      { tool: 'get_issue', args: { issue_id: ISSUE, occurrence_id: PROJECT } },
    ],
    [investigationQueries.trace(TRACE), { tool: 'get_trace', args: { trace_id: TRACE } }],
    [
      investigationQueries.span(TRACE, SPAN, { project_id: PROJECT }),
      { tool: 'get_span', args: { trace_id: TRACE, span_id: SPAN, project_id: PROJECT } },
    ],
    [investigationQueries.log(ISSUE), { tool: 'get_log', args: { log_id: ISSUE } }],
    [
      investigationQueries.metric({
        project_id: PROJECT,
        name: 'web.vitals.lcp',
        since: '24h',
        interval: 'auto',
        group_by: 'none',
        series_limit: 5,
      }),
      {
        tool: 'get_metric',
        args: {
          project_id: PROJECT,
          name: 'web.vitals.lcp',
          since: '24h',
          interval: 'auto',
          group_by: 'none',
          series_limit: 5,
        },
      },
    ],
    [
      investigationQueries.release({
        project_id: PROJECT,
        release: 'checkout-api@2.14.0',
        environment: 'production',
        service_name: 'checkout-api',
      }),
      {
        tool: 'release_health',
        args: {
          project_id: PROJECT,
          release: 'checkout-api@2.14.0',
          environment: 'production',
          service_name: 'checkout-api',
        },
      },
    ],
    [
      investigationQueries.correction(ISSUE, PROJECT, 'checkout-api-production-2.14.1-1'),
      {
        tool: 'verify_fix',
        args: {
          issue_id: ISSUE,
          baseline_occurrence_id: PROJECT,
          candidate_deployment_id: 'checkout-api-production-2.14.1-1',
        },
      },
    ],
  ])('case %#', (query, expected) => {
    expect(assistantCallOf(query.meta)).toEqual(expected);
  });

  it('is written as the tool name and its JSON arguments', () => {
    expect(formatAssistantCall({ tool: 'get_trace', args: { trace_id: TRACE } })).toBe(
      `get_trace {"trace_id":"${TRACE}"}`,
    );
  });

  it('is absent from a query that carries none', () => {
    expect(assistantCallOf(undefined)).toBeNull();
    expect(assistantCallOf({ assistantCall: 'get_issue' })).toBeNull();
  });
});
