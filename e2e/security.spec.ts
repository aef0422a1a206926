import { expect, test } from './support/fixtures';

test('the console is served with a strict CSP and nosniff', async ({ request }) => {
  const res = await request.get('/sign-in');
  expect(res.status()).toBe(200);
  const csp = res.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(res.headers()['x-content-type-options']).toBe('nosniff');
});

test('signing in and using the shell logs no errors and no CSP violations', async ({
  page,
  demo,
}) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 401/.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective}`);
    });
  });
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(demo.email);
  await page.getByLabel('Password').fill(demo.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.keyboard.press('Escape');
  expect(problems).toEqual([]);
});
