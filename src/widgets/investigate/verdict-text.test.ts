import { describe, expect, it } from 'vitest';
import { observationSentence, VERDICT_TEXT, verdictTone } from './verdict-text';

describe('verdict wording', () => {
  it('answers the question in words for each verdict', () => {
    expect(VERDICT_TEXT.recurred).toMatch(/came back/);
    expect(VERDICT_TEXT.not_recurred_yet).toMatch(/not come back/);
    expect(verdictTone('recurred')).toBe('danger');
    expect(verdictTone('not_recurred_yet')).toBe('success');
    expect(verdictTone('inconclusive')).toBe('warning');
  });

  it('says whether the issue was watched long enough', () => {
    const base = { from: '', until: '', minimum_observation_seconds: 3600 };
    expect(observationSentence({ ...base, observed_seconds: 90 })).toBe(
      'Watched for only 90 s after the deployment finished; at least 60 min is needed.',
    );
    expect(observationSentence({ ...base, observed_seconds: 3 * 86_400 })).toBe(
      'Watched for 3 days after the deployment finished (at least 60 min is needed).',
    );
  });
});
