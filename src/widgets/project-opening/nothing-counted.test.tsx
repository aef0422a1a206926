import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NothingCounted } from './nothing-counted';

describe('NothingCounted', () => {
  it('names the projects, what none of them has, and what follows', () => {
    const many = render(
      <NothingCounted projects={3} noun="metric sample" consequence="nothing to chart yet" />,
    );
    expect(many.container.textContent).toBe(
      'None of these 3 projects has a metric sample in this range, so there is nothing to chart yet.',
    );
    const one = render(
      <NothingCounted projects={1} noun="product action" consequence="nothing to count yet" />,
    );
    expect(one.container.textContent).toBe(
      'The project has no product action in this range, so there is nothing to count yet.',
    );
  });
});
