import {
  test as base,
  expect,
  request as playwrightRequest,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { demoCredentials, demoMembers, type DemoCredentials } from './demo';
import { E2E_BASE_URL } from './e2e-env';

type SessionCookie = Parameters<BrowserContext['addCookies']>[0][number];

/** One sign-in per account and worker: its `svc_session` cookie, shared by the worker's tests. */
type SessionBook = { cookiesFor: (email: string) => Promise<SessionCookie[]> };

type WorkerFixtures = { sessions: SessionBook };

type Fixtures = {
  demo: DemoCredentials;
  /** A page signed in as the demo owner, with the worker's shared sign-in (no form). */
  signedInPage: Page;
  /**
   * A page signed in through the form with a sign-in of its own, for tests that end it
   * (signing out would end the worker's shared sign-in for every later test).
   */
  ownSignInPage: Page;
  /** A second person at work beside the owner: Bruno (admin), in a browser context of his own. */
  teammatePage: Page;
};

/** Signs in through the form; `origin` names another service than the shared one. */
export async function signInThroughForm(page: Page, email: string, password: string, origin = '') {
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A new browser context signed in as `email` with the worker's sign-in of that account. */
export async function signedInContext(
  browser: Browser,
  sessions: SessionBook,
  email: string,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL });
  await context.addCookies(await sessions.cookiesFor(email));
  return context;
}

async function openProjects(page: Page) {
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  sessions: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { password } = demoCredentials();
      const signedIn = new Map<string, Promise<SessionCookie[]>>();
      const signIn = async (email: string): Promise<SessionCookie[]> => {
        const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
        try {
          const res = await api.post('/api/auth/login', { data: { email, password } });
          if (!res.ok()) throw new Error(`sign-in of ${email} answered ${res.status()}`);
          return (await api.storageState()).cookies;
        } finally {
          await api.dispose();
        }
      };
      await use({
        cookiesFor: (email) => {
          let cookies = signedIn.get(email);
          if (!cookies) {
            cookies = signIn(email);
            signedIn.set(email, cookies);
          }
          return cookies;
        },
      });
    },
    { scope: 'worker' },
  ],
  // eslint-disable-next-line no-empty-pattern
  demo: async ({}, use) => {
    await use(demoCredentials());
  },
  signedInPage: async ({ page, demo, sessions }, use) => {
    await page.context().addCookies(await sessions.cookiesFor(demo.email));
    await openProjects(page);
    await use(page);
  },
  ownSignInPage: async ({ page, demo }, use) => {
    await signInThroughForm(page, demo.email, demo.password);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    await use(page);
  },
  teammatePage: async ({ browser, sessions }, use) => {
    const context = await signedInContext(browser, sessions, demoMembers.admin);
    const page = await context.newPage();
    await openProjects(page);
    await use(page);
    await context.close();
  },
});

export { expect };
