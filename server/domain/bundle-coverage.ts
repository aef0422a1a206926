import type { CutCounter } from './investigation-bounds';

/**
 * The `coverage` object of an investigation bundle: per section, what was included, what
 * was cut (items beyond the section's limit, long strings) and what was unavailable and why.
 * A `200` does not prove completeness; `complete` is true only when nothing was cut or missing.
 */
export type SectionCoverage = {
  section: string;
  status: 'included' | 'truncated' | 'unavailable';
  /** Items in the section (1 for a single record). */
  included: number;
  /** Items left out beyond the limit; null when more exist but were not counted. */
  omitted: number | null;
  /** True when items were left out or any string or attribute value was cut. */
  truncated: boolean;
  /** Strings cut to their character limit. */
  truncated_strings: number;
  /** Attribute keys, array items or nested levels left out. */
  truncated_values: number;
  /** The section's item limit; null for a single record. */
  limit: number | null;
};

export type BundleCoverage = {
  complete: boolean;
  sections: SectionCoverage[];
  truncated_sections: string[];
  unavailable: { section: string; reason: string }[];
};

export class CoverageBuilder {
  private readonly sections: SectionCoverage[] = [];
  private readonly missing: { section: string; reason: string }[] = [];

  /**
   * A section that was read. `more` says items were left out: a number when counted, `true`
   * when only known to exist (one row beyond the limit was read).
   */
  add(
    section: string,
    included: number,
    opts: { limit?: number; more?: number | boolean; cut?: CutCounter } = {},
  ): void {
    const more = opts.more ?? 0;
    const omitted = more === true ? null : more === false ? 0 : more;
    const strings = opts.cut?.strings ?? 0;
    const values = opts.cut?.values ?? 0;
    const truncated = omitted === null || omitted > 0 || strings > 0 || values > 0;
    this.sections.push({
      section,
      status: truncated ? 'truncated' : 'included',
      included,
      omitted,
      truncated,
      truncated_strings: strings,
      truncated_values: values,
      limit: opts.limit ?? null,
    });
  }

  /** A section that could not be filled, with the reason in plain words. */
  unavailable(section: string, reason: string): void {
    this.missing.push({ section, reason });
    this.sections.push({
      section,
      status: 'unavailable',
      included: 0,
      omitted: 0,
      truncated: false,
      truncated_strings: 0,
      truncated_values: 0,
      limit: null,
    });
  }

  build(): BundleCoverage {
    const truncated = this.sections.filter((s) => s.truncated).map((s) => s.section);
    return {
      complete: truncated.length === 0 && this.missing.length === 0,
      sections: this.sections,
      truncated_sections: truncated,
      unavailable: this.missing,
    };
  }
}
