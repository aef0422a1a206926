import { describe, expect, it } from 'vitest';
import type { AlertRule } from '../../api/queries/alerts';
import { conditionOf, draftOfRule, emptyDraft, previewInputOf, ruleInputOf } from './rule-draft';

const project = '00000000-0000-4000-8000-000000000001';

describe('conditionOf', () => {
  it('builds a log condition from the explorer query, threshold and window', () => {
    const draft = { ...emptyDraft(project, 'log'), logQuery: { severity: 'error', search: ' ' } };
    expect(conditionOf({ ...draft, threshold: '25', windowMinutes: '5' })).toEqual({
      ok: true,
      value: { query: { severity: 'error' }, op: 'above', threshold: 25, window_minutes: 5 },
    });
  });

  it('names the threshold when it is not a number', () => {
    const result = conditionOf({ ...emptyDraft(project, 'log'), threshold: 'ten' });
    expect(result).toMatchObject({ ok: false, problem: { field: 'threshold' } });
  });

  it('refuses a resolve threshold on the firing side (no hysteresis)', () => {
    const draft = { ...emptyDraft(project, 'log'), threshold: '10', resolveThreshold: '12' };
    expect(conditionOf(draft)).toMatchObject({ ok: false, problem: { field: 'resolve' } });
    expect(previewInputOf({ ...draft, resolveThreshold: '8' })).toMatchObject({
      ok: true,
      value: { resolve_threshold: 8, condition: { threshold: 10 } },
    });
  });

  it('sends no threshold for a new-issue rule, only its filters', () => {
    const draft = {
      ...emptyDraft(project, 'issue'),
      issueFilters: {
        environment: 'production',
        release: '',
        service: '',
        severity: '',
        assignee: 'team:t1',
      },
    };
    expect(conditionOf(draft)).toEqual({
      ok: true,
      value: {
        event: 'new_issue',
        filters: { environment: 'production', assignee: { team_id: 't1' } },
      },
    });
  });

  it('asks for the metric and the trace service', () => {
    expect(conditionOf(emptyDraft(project, 'metric'))).toMatchObject({
      problem: { field: 'metric' },
    });
    expect(conditionOf(emptyDraft(project, 'trace'))).toMatchObject({
      problem: { field: 'service' },
    });
  });
});

describe('ruleInputOf', () => {
  it('needs a name, then sends the inbox and webhooks', () => {
    const draft = { ...emptyDraft(project, 'log'), inbox: 'team:t1', webhookIds: ['w1'] };
    expect(ruleInputOf(draft)).toMatchObject({ ok: false, problem: { field: 'name' } });
    expect(ruleInputOf({ ...draft, name: ' Errors ' })).toMatchObject({
      ok: true,
      value: { name: 'Errors', notify: { inbox: { team_id: 't1' }, webhook_ids: ['w1'] } },
    });
  });

  it('needs a project for the preview', () => {
    expect(previewInputOf(emptyDraft(''))).toMatchObject({ problem: { field: 'project' } });
  });
});

describe('draftOfRule', () => {
  it('gives back the form of a saved rule', () => {
    const rule: AlertRule = {
      id: 'r1',
      project_id: project,
      name: 'Slow checkout',
      kind: 'trace',
      condition: {
        service: 'checkout',
        measure: 'p95',
        op: 'above',
        threshold: 800,
        window_minutes: 10,
      },
      notify: { inbox: { user_id: 'u1' }, webhook_ids: [] },
      enabled: true,
      muted_until: null,
      resolve_threshold: 600,
      state: 'ok',
      last_evaluated_window_end: null,
      last_error: null,
      created_at: '2026-11-26T00:00:00Z',
      updated_at: '2026-11-26T00:00:00Z',
    };
    const draft = draftOfRule(rule);
    expect(draft).toMatchObject({
      traceService: 'checkout',
      traceMeasure: 'p95',
      threshold: '800',
      windowMinutes: '10',
      resolveThreshold: '600',
      inbox: 'user:u1',
    });
    expect(ruleInputOf(draft)).toMatchObject({
      ok: true,
      value: { condition: rule.condition, resolve_threshold: 600 },
    });
  });
});
