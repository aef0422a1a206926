import { describe, expect, it } from 'vitest';
import {
  explorerSearchOfLogQuery,
  logQueryOfSearch,
  newRuleSearchSchema,
  viewOnlyKeys,
} from './alerts-search';

describe('the log rule query from the explorer view', () => {
  it('turns the explorer URL keys into the logs route keys', () => {
    const search = newRuleSearchSchema.parse({
      kind: 'log',
      severity: 'error',
      q: 'payment declined',
      service: 'checkout-api',
      status: 'ignored',
      trace_id: '0123456789abcdef0123456789abcdef',
      filters: [{ path: '/http/status', type: 'number', operator: 'gte', value: 500 }],
    });
    expect(logQueryOfSearch(search)).toEqual({
      severity: 'error',
      search: 'payment declined',
      service_name: 'checkout-api',
      attribute_filters: '[{"path":"/http/status","type":"number","operator":"gte","value":500}]',
    });
  });

  it('says which filters of the view a rule cannot hold', () => {
    expect(viewOnlyKeys({ status: 'ignored', trace_id: 'abc' })).toEqual([
      'the triage status',
      'the trace',
    ]);
    expect(viewOnlyKeys({ status: 'active', q: 'x' })).toEqual([]);
  });

  it('comes back as the same explorer view', () => {
    const search = {
      severity: 'warning' as const,
      q: 'timeout',
      environment: 'production',
      filters: [{ path: '/region', type: 'string' as const, operator: 'eq' as const, value: 'eu' }],
    };
    expect(explorerSearchOfLogQuery(logQueryOfSearch(search))).toEqual(search);
  });

  it('drops an unreadable value instead of failing the page', () => {
    const search = newRuleSearchSchema.parse({ kind: 'sms', severity: 'loud', q: 'x' });
    expect(search).toEqual({ q: 'x' });
  });
});
