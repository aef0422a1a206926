import { describe, expect, it } from 'vitest';
import { releaseQueries } from '../../api/queries/releases';
import type { LiveEvent } from '../../live/live-message';
import { isListQueryKey } from '../../live/on-reconnected';
import { liveEventTouchesReleases } from './live-release-match';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const event = (over: Record<string, unknown> = {}): LiveEvent => ({
  type: 'native_log',
  data: {
    id: 'x',
    project_id: P1,
    release: 'web@2',
    environment: 'production',
    service_name: 'web',
    ...over,
  },
});

describe('liveEventTouchesReleases', () => {
  it('takes events of the projects in scope only', () => {
    expect(liveEventTouchesReleases(event(), {})).toBe(true);
    expect(liveEventTouchesReleases(event(), { project_id: P1 })).toBe(true);
    expect(liveEventTouchesReleases(event(), { project_id: P2 })).toBe(false);
    expect(liveEventTouchesReleases(event(), { project_ids: `${P2},${P1}` })).toBe(true);
    expect(
      liveEventTouchesReleases(event({ project_id: 'other' }), { project_ids: `${P2},${P1}` }),
    ).toBe(false);
  });

  it('applies the exact release, environment and service filters', () => {
    expect(liveEventTouchesReleases(event(), { release: 'web@2', environment: 'production' })).toBe(
      true,
    );
    expect(liveEventTouchesReleases(event(), { release: 'web@1' })).toBe(false);
    expect(liveEventTouchesReleases(event(), { environment: 'staging' })).toBe(false);
    expect(liveEventTouchesReleases(event(), { service_name: 'api' })).toBe(false);
    expect(liveEventTouchesReleases(event({ release: undefined }), { release: 'web@1' })).toBe(
      true,
    );
  });
});

describe('after the live feed reconnects', () => {
  it('the release list and a release page’s rows are read again (missed events are not replayed)', () => {
    expect(isListQueryKey(releaseQueries.list({}).queryKey)).toBe(true);
    expect(isListQueryKey(releaseQueries.rows({ release: 'web@2' }).queryKey)).toBe(true);
  });
});
