import { describe, expect, it } from 'vitest';
import {
  buildDeploymentRequest,
  canRecordDeployments,
  compactUtcMinute,
  deploymentIdProblem,
  DEPLOYMENT_ID_RULE,
  fromUtcInputValue,
  initialDeploymentValues,
  suggestDeploymentId,
  toUtcInputValue,
  toUtcInputValueExact,
  valuesOfDeployment,
  type DeploymentFormValues,
} from './deployment-form';
import { P1 } from './fixtures.test-data';

const at = new Date('2026-11-22T19:30:45.123Z');
const target = {
  project_id: P1,
  release: 'checkout-api@2.14.0',
  environment: 'production',
  service_name: 'checkout-api',
};

const values = (overrides: Partial<DeploymentFormValues> = {}): DeploymentFormValues => ({
  deploymentId: 'checkout-api-production-2.14.0-202611221930',
  status: 'succeeded',
  startedAt: '2026-11-22T19:20',
  finishedAt: '2026-11-22T19:30',
  commitSha: '',
  ...overrides,
});

describe('suggestDeploymentId', () => {
  it('names service, environment, release and the UTC minute, the service once', () => {
    expect(compactUtcMinute(at)).toBe('202611221930');
    expect(suggestDeploymentId(target, at)).toBe('checkout-api-production-2.14.0-202611221930');
  });

  it('keeps a release that does not repeat the service', () => {
    expect(
      suggestDeploymentId({ ...target, release: 'web@1.8.2', service_name: 'storefront-web' }, at),
    ).toBe('storefront-web-production-web-1.8.2-202611221930');
  });

  it('fits anything to the id rule, keeping the time suffix', () => {
    const odd = suggestDeploymentId(
      { release: '@@v 1/2 ü', environment: ' prod / eu ', service_name: '__svc__' },
      at,
    );
    expect(odd).toBe('svc-prod-eu-v-1-2-202611221930');
    expect(DEPLOYMENT_ID_RULE.test(odd)).toBe(true);
    const long = suggestDeploymentId({ ...target, release: 'r'.repeat(300) }, at);
    expect(long.length).toBeLessThanOrEqual(128);
    expect(long.endsWith('-202611221930')).toBe(true);
    expect(DEPLOYMENT_ID_RULE.test(long)).toBe(true);
    expect(suggestDeploymentId({ release: '@', environment: '/', service_name: ' ' }, at)).toBe(
      'deploy-202611221930',
    );
  });
});

describe('deploymentIdProblem', () => {
  it('accepts the service rule and explains every refusal', () => {
    expect(deploymentIdProblem('a')).toBeNull();
    expect(deploymentIdProblem('x'.repeat(128))).toBeNull();
    expect(deploymentIdProblem('v1.2_3~4-5')).toBeNull();
    expect(deploymentIdProblem('')).toBe('Enter a deployment id.');
    expect(deploymentIdProblem('x'.repeat(129))).toMatch(/at most 128 characters/);
    expect(deploymentIdProblem('-abc')).toBe('Start with a letter or a digit.');
    expect(deploymentIdProblem('.')).toBe('Start with a letter or a digit.');
    expect(deploymentIdProblem('api@1.0')).toMatch(/only letters, digits/);
    expect(deploymentIdProblem('a b')).toMatch(/only letters, digits/);
    expect(deploymentIdProblem('é')).toBe('Start with a letter or a digit.');
  });
});

describe('UTC datetime inputs', () => {
  it('writes and reads the minute in UTC, whatever the local zone', () => {
    expect(toUtcInputValue(at)).toBe('2026-11-22T19:30');
    expect(fromUtcInputValue('2026-11-22T19:30')).toBe('2026-11-22T19:30:00.000Z');
    expect(fromUtcInputValue('2026-11-22T19:30:45')).toBe('2026-11-22T19:30:45.000Z');
    expect(fromUtcInputValue('2026-11-22T19:30:45.12')).toBe('2026-11-22T19:30:45.120Z');
  });

  it('refuses empty, malformed and impossible values', () => {
    expect(fromUtcInputValue('')).toBeNull();
    expect(fromUtcInputValue('2026-11-22')).toBeNull();
    expect(fromUtcInputValue('2026-02-31T10:00')).toBeNull();
    expect(fromUtcInputValue('2026-11-22T24:00')).toBeNull();
    expect(fromUtcInputValue('2026-11-22T19:30Z')).toBeNull();
  });

  it('keeps seconds and milliseconds of a stored instant, so it round-trips', () => {
    expect(toUtcInputValueExact('2026-11-22T19:30:00.000Z')).toBe('2026-11-22T19:30');
    expect(toUtcInputValueExact('2026-11-22T19:30:05Z')).toBe('2026-11-22T19:30:05');
    expect(toUtcInputValueExact('2026-11-22T20:30:05.007+01:00')).toBe('2026-11-22T19:30:05.007');
    expect(fromUtcInputValue(toUtcInputValueExact('2026-11-22T19:30:05.007Z'))).toBe(
      '2026-11-22T19:30:05.007Z',
    );
    expect(toUtcInputValueExact('yesterday')).toBe('');
  });
});

describe('initialDeploymentValues', () => {
  it('suggests an id, succeeded, ten minutes ending now', () => {
    expect(initialDeploymentValues(target, at)).toEqual({
      deploymentId: 'checkout-api-production-2.14.0-202611221930',
      status: 'succeeded',
      startedAt: '2026-11-22T19:20',
      finishedAt: '2026-11-22T19:30',
      commitSha: '',
    });
  });
});

describe('buildDeploymentRequest', () => {
  it('builds the body of the row with UTC times, without a commit when none is given', () => {
    expect(buildDeploymentRequest(target, values())).toEqual({
      ok: true,
      deploymentId: 'checkout-api-production-2.14.0-202611221930',
      body: {
        ...target,
        status: 'succeeded',
        started_at: '2026-11-22T19:20:00.000Z',
        finished_at: '2026-11-22T19:30:00.000Z',
      },
    });
  });

  it('sends a trimmed commit and a trimmed id', () => {
    const result = buildDeploymentRequest(
      target,
      values({ deploymentId: '  d-1 ', commitSha: ' ABCDEF1 ', status: 'failed' }),
    );
    expect(result.ok && result.deploymentId).toBe('d-1');
    expect(result.ok && result.body.commit_sha).toBe('ABCDEF1');
    expect(result.ok && result.body.status).toBe('failed');
  });

  it('allows a deployment that finished when it started', () => {
    expect(buildDeploymentRequest(target, values({ finishedAt: '2026-11-22T19:20' })).ok).toBe(
      true,
    );
  });

  it('says what to fix, field by field, before anything is sent', () => {
    const result = buildDeploymentRequest(
      target,
      values({
        deploymentId: 'api@1',
        startedAt: '2026-11-22T19:30',
        finishedAt: '2026-11-22T19:29',
        commitSha: 'xyz',
      }),
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        deploymentId: expect.stringMatching(/only letters, digits/) as unknown,
        finishedAt: 'It cannot finish before it started: make "Finished at" later.',
        commitSha: 'A commit sha is 7 to 64 hex characters (0–9, a–f); this one has 3.',
      },
    });
    const missing = buildDeploymentRequest(target, values({ startedAt: '', finishedAt: '' }));
    expect(missing).toEqual({
      ok: false,
      errors: {
        startedAt: 'Enter the date and time it started (UTC).',
        finishedAt: 'Enter the date and time it finished (UTC).',
      },
    });
    const notHex = buildDeploymentRequest(target, values({ commitSha: 'g'.repeat(10) }));
    expect(notHex.ok ? null : notHex.errors.commitSha).toBe(
      'A commit sha is 7 to 64 hex characters (0–9, a–f).',
    );
  });
});

describe('valuesOfDeployment', () => {
  it('puts a stored deployment back in the form, so re-sending it is the same body', () => {
    const stored = {
      deployment_id: 'd-1',
      status: 'failed' as const,
      started_at: '2026-11-22T19:20:00.000Z',
      finished_at: '2026-11-22T19:31:02.500Z',
      commit_sha: 'abcdef1',
    };
    const back = valuesOfDeployment(stored);
    expect(back).toEqual({
      deploymentId: 'd-1',
      status: 'failed',
      startedAt: '2026-11-22T19:20',
      finishedAt: '2026-11-22T19:31:02.500',
      commitSha: 'abcdef1',
    });
    const result = buildDeploymentRequest(target, back);
    expect(result.ok && result.body).toEqual({
      ...target,
      status: 'failed',
      started_at: stored.started_at,
      finished_at: stored.finished_at,
      commit_sha: 'abcdef1',
    });
    expect(valuesOfDeployment({ ...stored, commit_sha: null }).commitSha).toBe('');
  });
});

describe('canRecordDeployments', () => {
  it('is for owners only', () => {
    expect(canRecordDeployments('owner')).toBe(true);
    expect(canRecordDeployments('admin')).toBe(false);
    expect(canRecordDeployments('member')).toBe(false);
    expect(canRecordDeployments(undefined)).toBe(false);
  });
});
