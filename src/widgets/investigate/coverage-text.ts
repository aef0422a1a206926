import type { InvestigationCoverage } from '../../api/queries/investigations';

type SectionCoverage = InvestigationCoverage['sections'][number];

/** The service's section names as people read them. Unknown names are shown as sent. */
const SECTION_LABELS: Record<string, string> = {
  subject: 'Subject',
  issue: 'Issue',
  occurrence: 'Occurrence',
  occurrences: 'Occurrence counts',
  stack: 'Stack trace',
  breadcrumbs: 'Breadcrumbs',
  trace: 'Trace summary',
  error_spans: 'Error spans',
  logs: 'Logs of the trace',
  log: 'Log',
  issues: 'Issues',
  deployments: 'Deployments',
  releases: 'Releases',
  rows: 'Release rows',
  top_issues: 'Top issues',
  previous_release: 'Previous release',
  series: 'Series',
  samples: 'Samples',
  span: 'Span',
  parent_chain: 'Parent spans',
  parent_span: 'Parent span',
  action: 'Action',
  session: 'Session',
  recurrence_releases: 'Releases it came back in',
};

export function sectionLabel(section: string): string {
  return SECTION_LABELS[section] ?? section.replaceAll('_', ' ');
}

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** One line above the details: complete, or how much is missing. */
export function coverageHeadline(coverage: InvestigationCoverage): string {
  if (coverage.complete) return 'Complete: every section is included in full.';
  const cut = coverage.truncated_sections.length;
  const missing = coverage.unavailable.length;
  const parts = [
    cut > 0 ? `${plural(cut, 'section', 'sections')} cut to the limits` : null,
    missing > 0 ? `${plural(missing, 'section', 'sections')} unavailable` : null,
  ].filter((p): p is string => p !== null);
  return `Incomplete: ${parts.join(', ') || 'the service marked it incomplete'}.`;
}

/**
 * What was cut from one section, as a sentence: items left out beyond the limit (counted or
 * not), then shortened texts and dropped attribute values.
 */
export function truncationSentence(s: SectionCoverage): string {
  const label = sectionLabel(s.section);
  const parts: string[] = [];
  const limit = s.limit === null ? '' : ` (limit ${s.limit.toLocaleString('en-US')})`;
  if (s.omitted === null) {
    parts.push(
      `${s.included.toLocaleString('en-US')} shown, more exist but were not counted${limit}`,
    );
  } else if (s.omitted > 0) {
    parts.push(
      `${s.included.toLocaleString('en-US')} shown, ${s.omitted.toLocaleString('en-US')} more left out${limit}`,
    );
  }
  if (s.truncated_strings > 0)
    parts.push(`${plural(s.truncated_strings, 'long text', 'long texts')} shortened`);
  if (s.truncated_values > 0)
    parts.push(`${plural(s.truncated_values, 'attribute value', 'attribute values')} left out`);
  return `${label}: ${parts.join('; ') || 'cut to the limits'}.`;
}

/** Why a section is missing, in the service's words after the section's name. */
export function unavailableSentence(u: { section: string; reason: string }): string {
  return `${sectionLabel(u.section)}: not available — ${u.reason}.`;
}

/** The sections that were cut, in the bundle's order. */
export function truncatedSections(coverage: InvestigationCoverage): SectionCoverage[] {
  return coverage.sections.filter((s) => s.status === 'truncated');
}
