import { describe, expect, it } from 'vitest';
import type { AlertRule } from '../../api/queries/alerts';
import { ruleState } from './rule-state';

const rule: AlertRule = {
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
};
const now = Date.parse('2026-11-26T12:00:00Z');

describe('ruleState', () => {
  it('says off, muted, firing or OK, in that order of precedence', () => {
    expect(ruleState({ ...rule, enabled: false, state: 'firing' as const }, now).text).toBe('Off');
    expect(
      ruleState({ ...rule, state: 'firing', muted_until: '2026-11-26T13:00:00Z' }, now).text,
    ).toBe('Muted until 26 Nov 2026, 13:00:00 UTC');
    expect(ruleState({ ...rule, state: 'firing' }, now).tone).toBe('firing');
    expect(ruleState(rule, now).tone).toBe('ok');
  });

  it('says a rule whose last evaluation failed is not evaluated, over firing or OK', () => {
    const last_error = { error: 'e', next: 'n', at: '2026-11-26T11:59:00Z' };
    expect(ruleState({ ...rule, state: 'firing', last_error }, now)).toEqual({
      text: 'Not evaluated',
      tone: 'failing',
    });
    expect(ruleState({ ...rule, enabled: false, last_error }, now).text).toBe('Off');
  });

  it('forgets a mute that has ended', () => {
    expect(ruleState({ ...rule, muted_until: '2026-11-26T11:00:00Z' }, now).tone).toBe('ok');
  });
});
