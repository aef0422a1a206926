import { describe, expect, it } from 'vitest';
import type { InvestigationCoverage } from '../../api/queries/investigations';
import {
  coverageHeadline,
  sectionLabel,
  truncatedSections,
  truncationSentence,
  unavailableSentence,
} from './coverage-text';

type Section = InvestigationCoverage['sections'][number];

const section = (over: Partial<Section>): Section => ({
  section: 'logs',
  status: 'truncated',
  included: 50,
  omitted: 0,
  truncated: true,
  truncated_strings: 0,
  truncated_values: 0,
  limit: 50,
  ...over,
});

const coverage = (over: Partial<InvestigationCoverage>): InvestigationCoverage => ({
  complete: false,
  sections: [],
  truncated_sections: [],
  unavailable: [],
  ...over,
});

describe('coverage wording', () => {
  it('says a complete bundle is complete', () => {
    expect(coverageHeadline(coverage({ complete: true }))).toBe(
      'Complete: every section is included in full.',
    );
  });

  it('counts cut and unavailable sections', () => {
    expect(
      coverageHeadline(
        coverage({
          truncated_sections: ['logs'],
          unavailable: [
            { section: 'trace', reason: 'x' },
            { section: 'stack', reason: 'y' },
          ],
        }),
      ),
    ).toBe('Incomplete: 1 section cut to the limits, 2 sections unavailable.');
  });

  it('words counted and uncounted omissions with the limit', () => {
    expect(truncationSentence(section({ omitted: 12 }))).toBe(
      'Logs of the trace: 50 shown, 12 more left out (limit 50).',
    );
    expect(truncationSentence(section({ omitted: null }))).toBe(
      'Logs of the trace: 50 shown, more exist but were not counted (limit 50).',
    );
  });

  it('words shortened texts and dropped values', () => {
    expect(
      truncationSentence(
        section({
          section: 'occurrence',
          limit: null,
          included: 1,
          truncated_strings: 1,
          truncated_values: 3,
        }),
      ),
    ).toBe('Occurrence: 1 long text shortened; 3 attribute values left out.');
  });

  it('gives the reason of an unavailable section', () => {
    expect(unavailableSentence({ section: 'trace', reason: 'the log has no trace id' })).toBe(
      'Trace summary: not available — the log has no trace id.',
    );
  });

  it('shows unknown section names readably and keeps only cut sections', () => {
    expect(sectionLabel('span_links')).toBe('span links');
    const cut = section({ section: 'issues' });
    expect(
      truncatedSections(coverage({ sections: [section({ status: 'included', omitted: 0 }), cut] })),
    ).toEqual([cut]);
  });
});
