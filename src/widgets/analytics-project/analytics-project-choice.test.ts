import { describe, expect, it } from 'vitest';
import { chooseAnalyticsProject, PROJECTS_COUNTED } from './analytics-project-choice';

const choices = [{ id: 'api' }, { id: 'app' }, { id: 'web' }];
const counts =
  (m: Record<string, number | null | undefined>) =>
  (id: string): number | null | undefined =>
    m[id];

describe('chooseAnalyticsProject', () => {
  it('opens on the last project used when it is still a choice, without waiting for counts', () => {
    expect(chooseAnalyticsProject(choices, 'app', counts({}))).toEqual({
      kind: 'last-used',
      projectId: 'app',
    });
  });

  it('otherwise waits for every count, then opens on the project with the most actions', () => {
    expect(chooseAnalyticsProject(choices, null, counts({ api: 0, web: 40 }))).toEqual({
      kind: 'reading',
    });
    expect(chooseAnalyticsProject(choices, 'gone', counts({ api: 0, app: 12, web: 40 }))).toEqual({
      kind: 'most-actions',
      projectId: 'web',
      actions: 40,
    });
  });

  it('a tie keeps the earlier choice; a failed read is passed over', () => {
    expect(
      chooseAnalyticsProject(choices, null, counts({ api: 5, app: 5, web: null })),
    ).toMatchObject({ projectId: 'api' });
  });

  it('no project with an action in range opens none', () => {
    expect(chooseAnalyticsProject(choices, null, counts({ api: 0, app: 0, web: null }))).toEqual({
      kind: 'no-actions',
    });
    expect(chooseAnalyticsProject([], null, counts({}))).toEqual({ kind: 'no-actions' });
  });

  it(`counts at most ${PROJECTS_COUNTED} projects`, () => {
    const many = Array.from({ length: PROJECTS_COUNTED + 5 }, (_, i) => ({ id: `p${i}` }));
    const actionsOf = (id: string) => (id === `p${PROJECTS_COUNTED + 1}` ? 1000 : 1);
    expect(chooseAnalyticsProject(many, null, actionsOf)).toMatchObject({ projectId: 'p0' });
  });
});
