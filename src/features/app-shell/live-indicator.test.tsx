import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLiveStore } from '../../live/live-store';
import { LiveIndicator } from './live-indicator';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const projects = [
  { id: A, name: 'Storefront Web' },
  { id: B, name: 'Checkout API' },
];
const store = () => useLiveStore.getState();
const trigger = () => screen.getByRole('button', { name: /^Live feed/ });

afterEach(() => {
  vi.useRealTimers();
  act(() => store().feedStarted());
});

describe('LiveIndicator', () => {
  it('says the state in text', () => {
    render(<LiveIndicator projects={projects} projectIds={null} />);
    expect(trigger().textContent).toBe('Connecting…');
    expect(trigger().getAttribute('aria-label')).toBe('Live feed: Connecting…');

    act(() => store().connectionOpened());
    expect(trigger().textContent).toBe('Live');

    act(() => store().retryScheduled(Date.now() + 4_000));
    expect(trigger().textContent).toBe('Reconnecting in 4 s');

    act(() => store().attemptStarted());
    expect(trigger().textContent).toBe('Reconnecting…');

    act(() => store().feedPaused());
    expect(trigger().textContent).toBe('Paused');

    act(() => store().feedStopped());
    expect(trigger().textContent).toBe('Offline');
  });

  it('counts down to the next attempt', () => {
    vi.useFakeTimers();
    render(<LiveIndicator projects={projects} projectIds={null} />);
    act(() => store().retryScheduled(Date.now() + 4_000));
    expect(trigger().textContent).toBe('Reconnecting in 4 s');
    act(() => vi.advanceTimersByTime(1_000));
    expect(trigger().textContent).toBe('Reconnecting in 3 s');
    act(() => vi.advanceTimersByTime(3_000));
    expect(trigger().textContent).toBe('Reconnecting…');
  });

  it('counts new events of the scope, lists them as text, and marks them seen', () => {
    act(() => {
      store().connectionOpened();
      store().messageReceived([
        {
          type: 'native_log',
          data: {
            id: 'l1',
            project_id: A,
            severity: 'error',
            message: '<img src=x onerror=alert(1)> payment failed',
            occurred_at: '2025-05-03T14:05:09Z',
          },
        },
        { type: 'native_issue', data: { id: 'i1', project_id: A, title: 'TypeError in cart' } },
        { type: 'native_action', data: { id: 'a1', project_id: B, name: 'checkout.started' } },
      ]);
    });
    render(<LiveIndicator projects={projects} projectIds={[A]} />);
    expect(trigger().getAttribute('aria-label')).toBe('Live feed: Live, 2 new');
    expect(trigger().textContent).toBe('Live2 new');

    fireEvent.click(trigger());
    const panel = screen.getByRole('dialog', { name: 'Latest live events' });
    const rows = panel.querySelectorAll('li');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('TypeError in cart');
    expect(rows[1]?.textContent).toContain('<img src=x onerror=alert(1)> payment failed');
    expect(rows[1]?.textContent).toContain('Storefront Web');
    expect(rows[1]?.textContent).toContain('14:05:09 UTC');
    expect(panel.querySelector('img')).toBeNull();
    expect(panel.textContent).not.toContain('checkout.started');

    // Opening marks the scope's events seen; the other project's stays new.
    expect(trigger().getAttribute('aria-label')).toBe('Live feed: Live');
    expect(store().unseen[B]).toBe(1);

    // What arrives while it is open is seen as it arrives.
    act(() =>
      store().messageReceived([
        { type: 'native_log', data: { id: 'l2', project_id: A, message: 'later' } },
      ]),
    );
    expect(trigger().getAttribute('aria-label')).toBe('Live feed: Live');
    expect(panel.textContent).toContain('later');
  });

  it('says so when the scope has nothing yet', () => {
    render(<LiveIndicator projects={projects} projectIds={null} />);
    fireEvent.click(trigger());
    expect(screen.getByRole('dialog').textContent).toMatch(/Nothing new in this scope yet/);
  });
});
