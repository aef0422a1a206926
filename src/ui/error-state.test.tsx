import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { ErrorState } from './error-state';

describe('ErrorState', () => {
  it('shows the failure title, the HTTP status and the code of an enveloped error', () => {
    render(
      <ErrorState
        error={new ApiError({ status: 403, message: 'no access to project', code: 'forbidden' })}
      />,
    );
    expect(screen.getByRole('alert')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'You do not have access to this' })).toBeTruthy();
    expect(screen.getByText(/HTTP 403/).textContent).toBe('HTTP 403 · forbidden');
    // The service's `error` text is shown as data.
    expect(screen.getByText('no access to project')).toBeTruthy();
  });

  it('shows the status without inventing a code when the body was not the envelope', () => {
    render(<ErrorState error={new ApiError({ status: 502, message: 'HTTP 502 Bad Gateway' })} />);
    expect(screen.getByRole('heading', { name: 'The service had a problem' })).toBeTruthy();
    expect(screen.getByText(/HTTP 502/).textContent).toBe('HTTP 502');
    expect(screen.queryByText(/·/)).toBeNull();
  });

  it('shows next as guidance', () => {
    render(
      <ErrorState
        error={
          new ApiError({
            status: 422,
            message: 'invalid query parameters',
            code: 'validation_failed',
            next: 'Remove the unknown key and send the request again.',
          })
        }
      />,
    );
    expect(screen.getByText('What to do:')).toBeTruthy();
    expect(screen.getByText('Remove the unknown key and send the request again.')).toBeTruthy();
  });

  it('offers "Try again" only when it can reset, and calls reset', () => {
    const error = new ApiError({ status: 503, message: 'x', code: 'service_unavailable' });
    const { rerender } = render(<ErrorState error={error} />);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    const reset = vi.fn();
    rerender(<ErrorState error={error} reset={reset} />);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(reset).toHaveBeenCalledTimes(1);
  });

  it('says the service could not be reached on a network failure', () => {
    render(<ErrorState error={new ApiError({ status: 0, message: 'x' })} reset={() => {}} />);
    expect(screen.getByRole('heading', { name: 'The service could not be reached' })).toBeTruthy();
    expect(screen.getByText(/Lookout service is running/)).toBeTruthy();
    expect(screen.queryByText(/HTTP/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('leads to sign-in on a 401', () => {
    render(
      <ErrorState
        error={
          new ApiError({
            status: 401,
            message: 'x',
            code: 'unauthorized',
            nextAction: { code: 'sign_in', target: 'auth' },
          })
        }
      />,
    );
    const link = screen.getByRole('link', { name: 'Sign in' });
    expect(link.getAttribute('href')).toMatch(/^\/sign-in/);
  });

  it('links a known next_action only to a page that exists', () => {
    const error = new ApiError({
      status: 429,
      message: 'x',
      code: 'usage_limit_exceeded',
      nextAction: { code: 'reduce_usage_or_upgrade', target: 'pricing' },
    });
    const { rerender } = render(<ErrorState error={error} />);
    expect(screen.queryByRole('link', { name: 'Open plan' })).toBeNull();
    rerender(<ErrorState error={error} canOpen={(path) => path === '/plan'} />);
    expect(screen.getByRole('link', { name: 'Open plan' }).getAttribute('href')).toBe('/plan');
  });

  it('never renders service text as HTML', () => {
    render(
      <ErrorState
        error={new ApiError({ status: 400, message: '<img src=x onerror=alert(1)>', code: 'x' })}
      />,
    );
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
  });

  it('handles errors that are not ApiErrors', () => {
    render(<ErrorState error={new Error('boom')} />);
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
  });

  it('says the service could not be reached when a page’s code could not be fetched', () => {
    const reset = vi.fn();
    render(
      <ErrorState
        error={new TypeError('Failed to fetch dynamically imported module: http://x/assets/a.js')}
        reset={reset}
      />,
    );
    expect(screen.getByRole('heading', { name: 'The service could not be reached' })).toBeTruthy();
    expect(screen.getByText(/Check that the Lookout service is running/)).toBeTruthy();
    expect(screen.queryByText(/HTTP/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(reset).toHaveBeenCalledOnce();
  });

  it('says the same when a page’s stylesheet could not be loaded before its code', () => {
    render(<ErrorState error={new Error('Unable to preload CSS for /assets/traces-a1.css')} />);
    expect(screen.getByRole('heading', { name: 'The service could not be reached' })).toBeTruthy();
  });
});
