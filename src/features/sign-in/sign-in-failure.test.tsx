import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { SignInFailure } from './sign-in-failure';

describe('SignInFailure', () => {
  it("shows the service's error and next", () => {
    render(
      <SignInFailure
        error={
          new ApiError({
            status: 401,
            message: 'email or password is incorrect',
            code: 'unauthorized',
            next: 'Check the email and password and try again.',
          })
        }
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('email or password is incorrect');
    expect(alert.textContent).toContain('Check the email and password and try again.');
  });

  it('says the service could not be reached on a network failure', () => {
    render(<SignInFailure error={new ApiError({ status: 0, message: 'x' })} />);
    expect(screen.getByRole('alert').textContent).toContain('The service could not be reached');
  });
});
