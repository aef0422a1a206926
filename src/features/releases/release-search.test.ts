import { describe, expect, it } from 'vitest';
import {
  isOpenSectionsText,
  openSectionsOf,
  openSectionsSearch,
  releaseSearchSchema,
} from './release-search';

describe('the release page’s open sections in the URL', () => {
  it('takes none or known sections in the page’s order, once each', () => {
    expect(isOpenSectionsText('none')).toBe(true);
    expect(isOpenSectionsText('traces')).toBe(true);
    expect(isOpenSectionsText('issues,logs,metrics')).toBe(true);
    expect(isOpenSectionsText('logs,issues')).toBe(false);
    expect(isOpenSectionsText('logs,logs')).toBe(false);
    expect(isOpenSectionsText('spans')).toBe(false);
    expect(isOpenSectionsText('')).toBe(false);
    expect(releaseSearchSchema.parse({ open: 'bogus' }).open).toBeUndefined();
  });

  it('opens the section to start with by default and keeps the default out of the URL', () => {
    expect([...openSectionsOf(undefined, 'issues')]).toEqual(['issues']);
    expect([...openSectionsOf(undefined, null)]).toEqual([]);
    expect([...openSectionsOf('none', 'issues')]).toEqual([]);
    expect([...openSectionsOf('traces,logs', 'issues')]).toEqual(['traces', 'logs']);
    expect(openSectionsSearch(new Set(['issues']), 'issues')).toBeUndefined();
    expect(openSectionsSearch(new Set(), null)).toBeUndefined();
    expect(openSectionsSearch(new Set(), 'issues')).toBe('none');
    expect(openSectionsSearch(new Set(['logs', 'issues']), 'issues')).toBe('issues,logs');
  });
});
