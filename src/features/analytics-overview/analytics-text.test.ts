import { describe, expect, it } from 'vitest';
import {
  actionText,
  coverageSentence,
  formatRate,
  retentionCoverageLine,
  typeBreakdown,
  unitNoun,
} from './analytics-text';

describe('coverageSentence', () => {
  it('gives the share of the actions in words', () => {
    expect(coverageSentence(11_970, 12_340, 'carry a session id')).toBe(
      '97.0% of 12,340 actions carry a session id',
    );
    expect(coverageSentence(1, 1, 'carry a name')).toBe('100% of 1 action carry a name');
  });

  it('does not measure a share over no actions', () => {
    expect(coverageSentence(0, 0, 'carry a session id')).toBe(
      'No coverage to report: no actions were counted in range',
    );
  });
});

describe('typeBreakdown', () => {
  it('lists each type’s share of the key’s actions, most first', () => {
    expect(
      typeBreakdown({
        key: 'plan',
        events: 100,
        types: [
          { type: 'string', events: 90 },
          { type: 'number', events: 10 },
        ],
      }),
    ).toBe('string 90.0%, number 10.0%');
    expect(typeBreakdown({ key: 'ok', events: 7, types: [{ type: 'boolean', events: 7 }] })).toBe(
      'boolean 100%',
    );
  });
});

describe('words', () => {
  it('names actions, units and rates', () => {
    expect(actionText({ kind: 'page_view', name: '/pricing' })).toBe('Page view /pricing');
    expect(unitNoun('session', 1)).toBe('session');
    expect(unitNoun('identified_user', 2)).toBe('users');
    expect(formatRate(0.3825)).toBe('38.3%');
    expect(formatRate(0)).toBe('0%');
  });
});

describe('retentionCoverageLine', () => {
  const coverage = { events: 6_736, start_events: 1_891, return_events: 246 };
  it('says once that every action counts when none is chosen', () => {
    expect(retentionCoverageLine(coverage, null, null)).toBe(
      'All 6,736 actions count as start and return actions (any action)',
    );
  });
  it('names the chosen actions and their counts', () => {
    expect(
      retentionCoverageLine(
        coverage,
        { kind: 'page_view', event_name: 'Home' },
        { kind: 'interaction', event_name: 'Place order' },
      ),
    ).toBe(
      'Of 6,736 actions in range, 1,891 are the start action (Page view Home); 246 are the return action (Interaction Place order)',
    );
    expect(retentionCoverageLine(coverage, { kind: 'page_view', event_name: 'Home' }, null)).toBe(
      'Of 6,736 actions in range, 1,891 are the start action (Page view Home); all count as return actions',
    );
  });
  it('has nothing to say over no actions', () => {
    expect(
      retentionCoverageLine({ events: 0, start_events: 0, return_events: 0 }, null, null),
    ).toBe('No actions in range');
  });
});
