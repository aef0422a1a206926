import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it('keeps same-origin paths with their search', () => {
    expect(safeRedirect('/projects')).toBe('/projects');
    expect(safeRedirect('/projects?since=7d&project=abc')).toBe('/projects?since=7d&project=abc');
  });

  it('sends everything else to the projects page', () => {
    for (const target of [
      undefined,
      '',
      'projects',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\tprojects',
      '/sign-in?redirect=/projects',
    ]) {
      expect(safeRedirect(target), String(target)).toBe('/projects');
    }
  });
});
