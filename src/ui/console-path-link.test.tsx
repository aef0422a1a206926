import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ConsolePathLink } from './console-path-link';

vi.mock('@tanstack/react-router', () => ({ useNavigate: () => vi.fn() }));

describe('ConsolePathLink', () => {
  it('links a console path', () => {
    render(
      <ConsolePathLink path="/logs?project=p&since=2026-11-26T10:00:00Z">View</ConsolePathLink>,
    );
    expect(screen.getByRole('link', { name: 'View' }).getAttribute('href')).toBe(
      '/logs?project=p&since=2026-11-26T10:00:00Z',
    );
  });

  it('never links another origin or a script URL', () => {
    render(
      <>
        <ConsolePathLink path="//evil.example/x">Other</ConsolePathLink>
        <ConsolePathLink path="javascript:alert(1)">Script</ConsolePathLink>
      </>,
    );
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('Other')).toBeTruthy();
  });
});
