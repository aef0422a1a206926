import { describe, expect, it } from 'vitest';
import type { AlertRule } from '../../api/queries/alerts';
import { ruleSummary } from './rule-summary';

const rule = (patch: Partial<AlertRule>): AlertRule => ({
  id: 'r',
  project_id: 'p',
  name: 'n',
  kind: 'log',
  condition: {} as AlertRule['condition'],
  notify: { inbox: null, webhook_ids: [] },
  enabled: true,
  muted_until: null,
  resolve_threshold: null,
  state: 'ok',
  last_evaluated_window_end: null,
  last_error: null,
  created_at: '2026-11-26T00:00:00Z',
  updated_at: '2026-11-26T00:00:00Z',
  ...patch,
});

describe('ruleSummary', () => {
  it('says what a log rule counts and when it fires', () => {
    const summary = ruleSummary(
      rule({
        condition: {
          query: { severity: 'error', service_name: 'checkout' },
          op: 'above',
          threshold: 10,
          window_minutes: 15,
        } as AlertRule['condition'],
      }),
    );
    expect(summary).toBe('Logs (severity error, service checkout) above 10 logs in 15 min');
  });

  it('says which issue event fires an issue rule', () => {
    expect(
      ruleSummary(
        rule({
          kind: 'issue',
          condition: {
            event: 'new_issue',
            filters: { environment: 'production' },
          } as AlertRule['condition'],
        }),
      ),
    ).toBe('A new issue appears (environment production)');
  });

  it('names the service and measure of a trace rule', () => {
    expect(
      ruleSummary(
        rule({
          kind: 'trace',
          condition: {
            service: 'api',
            measure: 'p95',
            op: 'above',
            threshold: 800,
            window_minutes: 60,
          },
        }),
      ),
    ).toBe('api: p95 duration of root spans above 800 ms in 1 h');
  });
});
