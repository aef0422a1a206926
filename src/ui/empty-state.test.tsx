import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmptyState } from './empty-state';

describe('EmptyState', () => {
  it('shows a title, an explanation and an action', () => {
    render(
      <EmptyState title="No projects yet" action={<button type="button">New project</button>}>
        Create one to start sending telemetry.
      </EmptyState>,
    );
    expect(screen.getByRole('heading', { name: 'No projects yet' })).toBeTruthy();
    expect(screen.getByText('Create one to start sending telemetry.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New project' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('works without an action', () => {
    render(<EmptyState title="Nothing here" />);
    expect(screen.getByRole('region', { name: 'Nothing here' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
