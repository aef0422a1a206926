import type { Rng } from './random';
import {
  DAY_MS,
  ENVIRONMENTS,
  HOUR_MS,
  MINUTE_MS,
  SERVICE_NAMES,
  SERVICES,
  byProjectKey,
  releaseName,
  type Environment,
  type ProjectKey,
  type ServiceName,
  type Window,
} from './world-model';

/**
 * When each release reached each environment. It is the world's source of truth for "which
 * release was running then": every event takes its release from here. The seeder records it
 * through `PUT /api/telemetry/deployments/{deployment_id}` (`seed-deployments.ts`).
 */
export type DemoDeployment = {
  /** Caller-chosen and stable, as the spec's `deployment_id` is. */
  deployment_id: string;
  project: ProjectKey;
  release: string;
  environment: Environment;
  service_name: ServiceName;
  status: 'succeeded' | 'failed';
  started_at: string;
  finished_at: string;
  commit_sha: string;
};

/** The body of `PUT /api/telemetry/deployments/{deployment_id}` (spec: Deployment request fields). */
export type DeploymentRequest = {
  deployment_id: string;
  body: {
    project_id: string;
    release: string;
    environment: string;
    service_name: string;
    status: 'succeeded' | 'failed';
    started_at: string;
    finished_at: string;
    commit_sha: string;
  };
};

type Live = { release: string; at: number };

export type DeploymentTimeline = {
  deployments: DemoDeployment[];
  /** The release running at `t` (servers switch at once when a deployment finishes). */
  releaseAt(service: ServiceName, environment: Environment, t: number): string;
  /**
   * The release an event at `t` reports. For app-store apps, users update gradually, so an
   * older release keeps reporting for days after a new one ships.
   */
  releaseFor(service: ServiceName, environment: Environment, t: number, rng: Rng): string;
  /** The share of events at `t` that report `release` (what `releaseFor` draws from). */
  shareOf(service: ServiceName, environment: Environment, release: string, t: number): number;
  /** When `release` was running in `environment`, clipped to `within`. */
  windowsOf(
    service: ServiceName,
    environment: Environment,
    release: string,
    within: Window,
  ): Window[];
  /** Finish times of successful deployments in `environment`, oldest first. */
  deployedAt(service: ServiceName, environment: Environment): number[];
};

const startOfUtcDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

export function buildDeploymentTimeline(rng: Rng, now: number): DeploymentTimeline {
  const deployments: DemoDeployment[] = [];
  const live = new Map<string, Live[]>();
  const key = (s: ServiceName, e: Environment) => `${s}/${e}`;

  for (const service of SERVICE_NAMES) {
    const def = SERVICES[service];
    for (const plan of def.releases) {
      const release = releaseName(service, plan.version);
      const commit = rng.hex(40);
      // Deployments finish a few minutes after the planned hour, never on the dot.
      const production =
        startOfUtcDay(now) - plan.daysAgo * DAY_MS + plan.hourUtc * HOUR_MS + rng.int(0, 900_000);
      for (const environment of ENVIRONMENTS) {
        const finishedAt =
          environment === 'production' ? production : production - plan.stagingLeadHours * HOUR_MS;
        const list = live.get(key(service, environment)) ?? [];
        list.push({ release, at: finishedAt });
        live.set(key(service, environment), list);
        // Databases and caches are not deployed by this team: no deployment records.
        if (def.platform === 'datastore') continue;
        const failures = environment === 'production' ? (plan.failedAttempts ?? 0) : 0;
        for (let attempt = 1; attempt <= failures + 1; attempt++) {
          const failed = attempt <= failures;
          // Failed attempts come before the good one, roughly 40 minutes apart.
          const end = finishedAt - (failures + 1 - attempt) * 40 * MINUTE_MS;
          const duration =
            (failed ? rng.int(2, 6) : rng.int(3, 9)) * MINUTE_MS + rng.int(0, 59_999);
          deployments.push({
            // `+` (a build number) would read as a space in some URL handling: spelled out.
            deployment_id: `${service}-${environment}-${plan.version.replace('+', '-build-')}-${attempt}`,
            project: def.project,
            release,
            environment,
            service_name: service,
            status: failed ? 'failed' : 'succeeded',
            started_at: new Date(end - duration).toISOString(),
            finished_at: new Date(end).toISOString(),
            commit_sha: commit,
          });
        }
      }
    }
  }
  for (const list of live.values()) list.sort((a, b) => a.at - b.at);
  deployments.sort((a, b) => a.finished_at.localeCompare(b.finished_at));

  const liveOf = (service: ServiceName, environment: Environment): Live[] => {
    const list = live.get(key(service, environment));
    if (!list || list.length === 0) throw new Error(`no releases for ${service}`);
    return list;
  };

  const releaseAt = (service: ServiceName, environment: Environment, t: number) => {
    const list = liveOf(service, environment);
    let current = list[0];
    for (const r of list) if (r.at <= t) current = r;
    return (current ?? list[0])?.release ?? '';
  };

  // Newest first: a release is on a device with a probability that grows with its age.
  const adoption = (at: number, t: number, hours: number) =>
    1 - Math.exp(-(t - at) / (hours * HOUR_MS));

  return {
    deployments,
    releaseAt,
    releaseFor(service, environment, t, rng) {
      const hours = SERVICES[service].adoptionHours;
      if (hours === undefined) return releaseAt(service, environment, t);
      const shipped = liveOf(service, environment).filter((r) => r.at <= t);
      for (let i = shipped.length - 1; i > 0; i--) {
        const r = shipped[i];
        if (r && rng.chance(adoption(r.at, t, hours))) return r.release;
      }
      return (shipped[0] ?? liveOf(service, environment)[0])?.release ?? '';
    },
    shareOf(service, environment, release, t) {
      const hours = SERVICES[service].adoptionHours;
      if (hours === undefined) return releaseAt(service, environment, t) === release ? 1 : 0;
      const shipped = liveOf(service, environment).filter((r) => r.at <= t);
      let remaining = 1;
      for (let i = shipped.length - 1; i >= 0; i--) {
        const r = shipped[i];
        if (!r) continue;
        const p = i === 0 ? 1 : adoption(r.at, t, hours);
        if (r.release === release) return remaining * p;
        remaining *= 1 - p;
      }
      return 0;
    },
    windowsOf(service, environment, release, within) {
      const list = liveOf(service, environment);
      const lingers = SERVICES[service].adoptionHours !== undefined;
      const out: Window[] = [];
      list.forEach((r, i) => {
        if (r.release !== release) return;
        const next = list[i + 1];
        const from = Math.max(r.at, within.from);
        const to = Math.min(lingers || !next ? within.to : next.at, within.to);
        if (to > from) out.push({ from, to });
      });
      return out;
    },
    deployedAt(service, environment) {
      return deployments
        .filter(
          (d) =>
            d.service_name === service && d.environment === environment && d.status === 'succeeded',
        )
        .map((d) => Date.parse(d.finished_at));
    },
  };
}

/** The timeline as request bodies for the deployment route. */
export function deploymentRequests(
  deployments: readonly DemoDeployment[],
  projectIds: Record<ProjectKey, string>,
): DeploymentRequest[] {
  return deployments.map(({ deployment_id, project, ...rest }) => ({
    deployment_id,
    body: { project_id: projectIds[project], ...rest },
  }));
}

/** Project ids by key, from the credentials `demo-accounts.ts` writes. */
export const projectIdsByKey = (projects: readonly { id: string; name: string }[]) =>
  byProjectKey(projects, (p) => p.id);
