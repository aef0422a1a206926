import fs from 'node:fs';
import path from 'node:path';
import { E2E_DATA_DIR } from './e2e-env';

export type DemoCredentials = {
  email: string;
  password: string;
  account_token: string;
  projects: { id: string; name: string; ingest_key: string }[];
};

export function demoCredentials(): DemoCredentials {
  return JSON.parse(
    fs.readFileSync(path.join(E2E_DATA_DIR, 'demo-credentials.json'), 'utf8'),
  ) as DemoCredentials;
}

/** Other members of the demo organization (same password): tests that revoke sign-ins use their own. */
export const demoMembers = {
  admin: 'bruno@lookout.dev',
  member: 'chen@lookout.dev',
} as const;
