import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';
import { E2E_BASE_URL, E2E_PORT } from './e2e/support/e2e-env';

/**
 * End-to-end: the built console served by the real service on a fresh data directory,
 * driven in Debian's Chromium (Playwright's own browser download is not available here).
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'console', testIgnore: 'postgres/**' },
    // Several service instances on one PostgreSQL: run by `npm run test:pg`.
    { name: 'postgres', testMatch: 'postgres/**/*.spec.ts' },
  ],
  webServer: {
    command: 'npx tsx e2e/support/start-e2e-service.ts',
    url: `${E2E_BASE_URL}/healthz`,
    reuseExistingServer: false,
    // Seeding takes 6-25 s here (quiet to loaded); a busy CI machine once took over 60.
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { PORT: String(E2E_PORT) },
  },
});
