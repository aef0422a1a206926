import { describe, expect, it } from 'vitest';
import {
  buildDeploymentTimeline,
  deploymentRequests,
  projectIdsByKey,
} from './deployment-timeline';
import { createRng } from './random';
import { DAY_MS, HOUR_MS, PROJECT_NAMES } from './world-model';

const NOW = Date.parse('2026-11-20T15:04:05.678Z');

describe('the deployment timeline', () => {
  const timeline = buildDeploymentTimeline(createRng(1), NOW);

  it('deploys each release to staging before production, all before now', () => {
    const prod = timeline.deployments.filter(
      (d) => d.environment === 'production' && d.status === 'succeeded',
    );
    for (const d of prod) {
      const staging = timeline.deployments.find(
        (s) => s.environment === 'staging' && s.release === d.release,
      );
      expect(staging, d.release).toBeDefined();
      expect(Date.parse(staging?.finished_at ?? '')).toBeLessThanOrEqual(Date.parse(d.finished_at));
      expect(staging?.commit_sha).toBe(d.commit_sha);
    }
    for (const d of timeline.deployments) {
      expect(Date.parse(d.started_at)).toBeLessThan(Date.parse(d.finished_at));
      expect(Date.parse(d.finished_at)).toBeLessThan(NOW);
      expect(d.commit_sha).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(new Set(timeline.deployments.map((d) => d.deployment_id)).size).toBe(
      timeline.deployments.length,
    );
  });

  it('runs the bad checkout release for less than a day, then the fix', () => {
    const [bad] = timeline.windowsOf('checkout-api', 'production', 'checkout-api@2.14.0', {
      from: NOW - 14 * DAY_MS,
      to: NOW,
    });
    expect(bad).toBeDefined();
    if (!bad) return;
    expect(bad.to - bad.from).toBeLessThan(DAY_MS);
    expect(bad.from).toBeGreaterThan(NOW - 6 * DAY_MS);
    expect(timeline.releaseAt('checkout-api', 'production', bad.from + HOUR_MS)).toBe(
      'checkout-api@2.14.0',
    );
    expect(timeline.releaseAt('checkout-api', 'production', bad.to + 1)).toBe(
      'checkout-api@2.14.1',
    );
    expect(timeline.releaseAt('checkout-api', 'production', NOW - 13 * DAY_MS)).toBe(
      'checkout-api@2.13.0',
    );
  });

  it('lets app users update gradually: old app releases keep reporting for a while', () => {
    const rng = createRng(2);
    const shipped = Date.parse(
      timeline.deployments.find(
        (d) => d.release === 'shop-android@5.4.1+5043' && d.environment === 'production',
      )?.finished_at ?? '',
    );
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++)
      seen.add(timeline.releaseFor('shop-android', 'production', shipped + 6 * HOUR_MS, rng));
    expect(seen).toContain('shop-android@5.4.1+5043');
    expect(seen).toContain('shop-android@5.4.0+5040');
    const share = timeline.shareOf('shop-android', 'production', 'shop-android@5.4.1+5043', NOW);
    expect(share).toBeGreaterThan(0.5);
    expect(share).toBeLessThan(1);
  });

  it('turns into request bodies for the deployment route once the projects exist', () => {
    const projects = Object.values(PROJECT_NAMES).map((name, i) => ({ id: `id-${i}`, name }));
    const requests = deploymentRequests(timeline.deployments, projectIdsByKey(projects));
    expect(requests).toHaveLength(timeline.deployments.length);
    expect(requests[0]?.body).toEqual({
      project_id: expect.stringMatching(/^id-/),
      release: expect.any(String),
      environment: expect.stringMatching(/^(production|staging)$/),
      service_name: expect.any(String),
      status: expect.stringMatching(/^(succeeded|failed)$/),
      started_at: expect.any(String),
      finished_at: expect.any(String),
      commit_sha: expect.any(String),
    });
  });
});
