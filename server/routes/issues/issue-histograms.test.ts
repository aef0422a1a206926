import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../test-support/api-client';
import { addPerson, ingestIssues, issueIdOf } from '../../test-support/issues';
import { startService, type RunningService } from '../../test-support/start-service';
import { createTenant, issueItem, type Tenant } from '../../test-support/telemetry';

type Histograms = {
  since: string;
  until: string;
  bucket_seconds: number;
  issues: { issue_id: string; counts: number[] }[];
};

const PATH = '/api/telemetry/issues/histograms';
// The test clock stands at 2025-03-03T09:00:00Z; every occurrence is before it.
const t = (hhmm: string) => `2025-03-03T${hhmm}:00.000Z`;

describe('GET /api/telemetry/issues/histograms', () => {
  let svc: RunningService<false>;
  let tenant: Tenant;
  let token = '';
  let a = '';
  let b = '';
  let x = '';
  const repeated = issueItem({ fingerprint: 'fp-a', occurred_at: t('08:10') });

  const get = (query: string, tok: string | null = token) =>
    call(svc.baseUrl, 'GET', `${PATH}?${query}`, tok === null ? {} : { token: tok });
  const histograms = async (query: string) => {
    const res = await get(query);
    expect(res.status, res.text).toBe(200);
    return res.body as Histograms;
  };
  const countsOf = (h: Histograms, id: string) => h.issues.find((i) => i.issue_id === id)?.counts;

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc);
    token = (await addPerson(svc, tenant.organizationId, 'member')).token;
    await ingestIssues(svc, tenant.ingestKey, [
      issueItem({ fingerprint: 'fp-a', occurred_at: t('06:20') }),
      issueItem({ fingerprint: 'fp-a', occurred_at: t('08:00') }),
      repeated,
      issueItem({ fingerprint: 'fp-a', occurred_at: t('08:59') }),
      issueItem({ fingerprint: 'fp-b', occurred_at: t('07:30') }),
    ]);
    // Sent again, twice: not stored, so not counted.
    await ingestIssues(svc, tenant.ingestKey, [repeated]);
    await ingestIssues(svc, tenant.ingestKey, [repeated, issueItem({ fingerprint: 'fp-c' })]);
    a = await issueIdOf(svc, token, tenant.projectId, 'fp-a');
    b = await issueIdOf(svc, token, tenant.projectId, 'fp-b');
    const stranger = await createTenant(svc);
    await ingestIssues(svc, stranger.ingestKey, [
      issueItem({ fingerprint: 'fp-x', occurred_at: t('08:30') }),
    ]);
    const strangerToken = (await addPerson(svc, stranger.organizationId, 'owner')).token;
    x = await issueIdOf(svc, strangerToken, stranger.projectId, 'fp-x');
  });
  afterAll(async () => {
    await svc.close();
  });

  it('counts stored occurrences per hour, widened to whole hours, in request order', async () => {
    const h = await histograms(`issue_ids=${b},${a}&since=${t('06:30')}&until=${t('08:30')}`);
    expect(h).toEqual({
      since: t('06:00'),
      until: t('09:00'),
      bucket_seconds: 3600,
      issues: [
        { issue_id: b, counts: [0, 1, 0] },
        // 06:20; nothing at 07; 08:00, 08:10 (sent three times, stored once) and 08:59.
        { issue_id: a, counts: [1, 0, 3] },
      ],
    });
  });

  it('until is exclusive: an occurrence at until is not counted', async () => {
    const h = await histograms(`issue_ids=${a}&since=${t('06:00')}&until=${t('08:00')}`);
    expect(h.since).toBe(t('06:00'));
    expect(h.until).toBe(t('08:00'));
    expect(countsOf(h, a)).toEqual([1, 0]);
  });

  it('makes buckets of ceil(hours / buckets) hours; the last may be shorter', async () => {
    const range = `since=${t('06:00')}&until=${t('09:00')}`;
    const two = await histograms(`issue_ids=${a}&${range}&buckets=2`);
    expect(two.bucket_seconds).toBe(7200);
    expect(countsOf(two, a)).toEqual([1, 3]);
    const one = await histograms(`issue_ids=${a}&${range}&buckets=1`);
    expect(one.bucket_seconds).toBe(3 * 3600);
    expect(countsOf(one, a)).toEqual([4]);
  });

  it('defaults to 24 buckets up to the request time and takes a compact since', async () => {
    const h = await histograms(`issue_ids=${a},${b}&since=24h`);
    expect(h).toMatchObject({
      since: '2025-03-02T09:00:00.000Z',
      until: t('09:00'),
      bucket_seconds: 3600,
    });
    const counts = countsOf(h, a) ?? [];
    expect(counts).toHaveLength(24);
    expect(counts.slice(-3)).toEqual([1, 0, 3]);
    expect(counts.reduce((s, n) => s + n, 0)).toBe(4);
  });

  it('leaves out unknown and unreadable issues; ids compare case-insensitively', async () => {
    const h = await histograms(
      `issue_ids=${randomUUID()},${x},${a.toUpperCase()}&since=${t('08:00')}&until=${t('09:00')}`,
    );
    expect(h.issues).toEqual([{ issue_id: a, counts: [3] }]);
    const none = await histograms(`issue_ids=${x}&since=24h`);
    expect(none.issues).toEqual([]);
  });

  it('takes up to 100 ids', async () => {
    const ids = [a, ...Array.from({ length: 99 }, () => randomUUID())];
    const h = await histograms(`issue_ids=${ids.join(',')}&since=1h`);
    expect(h.issues.map((i) => i.issue_id)).toEqual([a]);
  });

  it('refuses every bad query value with 422', async () => {
    const ok = `issue_ids=${a}&since=24h`;
    const many = Array.from({ length: 101 }, () => randomUUID()).join(',');
    const cases: [string, string][] = [
      [`issue_ids=${a}`, 'since'],
      [`issue_ids=${a}&since=yesterday`, 'since must be'],
      [`issue_ids=${a}&since=0h`, 'since must be'],
      [`issue_ids=${a}&since=2025-02-30T00:00:00Z`, 'since must be'],
      [`${ok}&until=tomorrow`, 'until must be an RFC3339 timestamp'],
      [`issue_ids=${a}&since=${t('08:00')}&until=${t('07:00')}`, 'until must be later than since'],
      [`issue_ids=${a}&since=${t('08:00')}&until=${t('08:00')}`, 'until must be later than since'],
      [`issue_ids=${a}&since=2025-03-04T00:00:00Z`, 'until must be later than since'],
      [`since=24h`, 'issue_ids'],
      [`issue_ids=&since=24h`, 'issue_ids'],
      [`issue_ids=${many}&since=24h`, 'issue_ids'],
      [`issue_ids=${a},${a}&since=24h`, 'issue_ids must not repeat an id'],
      [`issue_ids=${a},${a.toUpperCase()}&since=24h`, 'issue_ids must not repeat an id'],
      [`issue_ids=${a},nope&since=24h`, 'must be a UUID'],
      [`${ok}&buckets=0`, 'buckets must be an integer from 1 to 100'],
      [`${ok}&buckets=101`, 'buckets must be an integer from 1 to 100'],
      [`${ok}&buckets=abc`, 'buckets must be an integer from 1 to 100'],
      [`${ok}&project_id=${tenant.projectId}`, 'project_id'],
      [`${ok}&since=7d`, 'since'],
    ];
    for (const [query, text] of cases) {
      const res = await get(query);
      expectError(res, 422, 'validation_failed');
      expect((res.body as { error: string }).error, query).toContain(text);
    }
  });

  it('answers 405 for other methods, never invalid_path', async () => {
    for (const method of ['POST', 'DELETE']) {
      const res = await call(svc.baseUrl, method, `${PATH}?issue_ids=${a}&since=24h`, {
        token,
        json: {},
      });
      expectError(res, 405, 'method_not_allowed');
    }
  });

  it('needs an account bearer', async () => {
    expectError(await get(`issue_ids=${a}&since=24h`, null), 401, 'unauthorized');
    expectError(await get(`issue_ids=${a}&since=24h`, tenant.ingestKey), 401, 'unauthorized');
  });
});
