import { test as base, expect, type Page } from '@playwright/test';
import { demoCredentials, type DemoCredentials } from './demo';

type Fixtures = {
  demo: DemoCredentials;
  /** A page already signed in as the demo owner (through the sign-in form). */
  signedInPage: Page;
};

/** Signs in through the form; `origin` names another service than the shared one. */
export async function signInThroughForm(page: Page, email: string, password: string, origin = '') {
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  demo: async ({}, use) => {
    await use(demoCredentials());
  },
  signedInPage: async ({ page, demo }, use) => {
    await signInThroughForm(page, demo.email, demo.password);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    await use(page);
  },
});

export { expect };
