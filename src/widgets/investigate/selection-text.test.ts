import { describe, expect, it } from 'vitest';
import { selectionSentence } from './selection-text';

const base = { requested: null, response_version: 2, occurrence_id: 'o' } as const;

describe('selectionSentence', () => {
  it('names the rule the recommendation used', () => {
    expect(
      selectionSentence(
        { ...base, used: 'recommended', rule: 'trace_and_stack' },
        '2026-01-02 10:00 UTC',
      ),
    ).toBe(
      'Recommended: the latest occurrence with both a trace and a stack trace, the occurrence of 2026-01-02 10:00 UTC.',
    );
  });

  it('says when the viewed occurrence was used', () => {
    expect(selectionSentence({ ...base, used: 'occurrence_id', rule: null }, 'T')).toBe(
      'The occurrence you were viewing: the occurrence of T.',
    );
  });
});
