import { describe, expect, it } from 'vitest';
import { chooseBusiestProject, countsOfReads, PROJECTS_COUNTED } from './choose-busiest-project';

const choices = [{ id: 'api' }, { id: 'app' }, { id: 'web' }];
const counts =
  (m: Record<string, number | null | undefined>) =>
  (id: string): number | null | undefined =>
    m[id];

describe('chooseBusiestProject', () => {
  it('opens on the last project used when it is still a choice, without waiting for counts', () => {
    expect(chooseBusiestProject(choices, 'app', counts({}))).toEqual({
      kind: 'last-used',
      projectId: 'app',
    });
  });

  it('otherwise waits for every count, then opens on the project with the highest count', () => {
    expect(chooseBusiestProject(choices, null, counts({ api: 0, web: 40 }))).toEqual({
      kind: 'reading',
    });
    expect(chooseBusiestProject(choices, 'gone', counts({ api: 0, app: 12, web: 40 }))).toEqual({
      kind: 'busiest',
      projectId: 'web',
      count: 40,
    });
  });

  it('a tie keeps the earlier choice; a failed read is passed over', () => {
    expect(
      chooseBusiestProject(choices, null, counts({ api: 5, app: 5, web: null })),
    ).toMatchObject({ projectId: 'api' });
  });

  it('no project with anything counted in range opens none', () => {
    expect(chooseBusiestProject(choices, null, counts({ api: 0, app: 0, web: 0 }))).toEqual({
      kind: 'none',
    });
    expect(chooseBusiestProject([], null, counts({}))).toEqual({ kind: 'none' });
  });

  it('when reads failed and no other project counts anything, says it failed, not "none"', () => {
    expect(chooseBusiestProject(choices, null, counts({ api: 0, app: 0, web: null }))).toEqual({
      kind: 'failed',
    });
    expect(
      chooseBusiestProject(choices, null, counts({ api: null, app: null, web: null })),
    ).toEqual({ kind: 'failed' });
  });

  it(`counts at most ${PROJECTS_COUNTED} projects`, () => {
    const many = Array.from({ length: PROJECTS_COUNTED + 5 }, (_, i) => ({ id: `p${i}` }));
    const countOf = (id: string) => (id === `p${PROJECTS_COUNTED + 1}` ? 1000 : 1);
    expect(chooseBusiestProject(many, null, countOf)).toMatchObject({ projectId: 'p0' });
  });
});

describe('countsOfReads', () => {
  it('gives each project its read: counted once read, null when it failed, pending otherwise', () => {
    const countOf = countsOfReads(
      choices,
      [
        { isError: false, data: { n: 7 } },
        { isError: true, data: undefined },
        { isError: false, data: undefined },
      ],
      (d) => d.n,
    );
    expect([countOf('api'), countOf('app'), countOf('web'), countOf('other')]).toEqual([
      7,
      null,
      undefined,
      undefined,
    ]);
  });
});
