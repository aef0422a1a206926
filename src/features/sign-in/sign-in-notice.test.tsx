import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSignOutNoticeStore } from '../../api/sign-out-notice-store';
import { SignInNotice } from './sign-in-notice';

afterEach(() => useSignOutNoticeStore.getState().noticeShown());

describe('SignInNotice', () => {
  it('explains an ended session and a sign-out', () => {
    const { rerender } = render(<SignInNotice reason="expired" />);
    expect(screen.getByRole('status').textContent).toBe('Your session has ended. Sign in again.');
    rerender(<SignInNotice reason="signed-out" />);
    expect(screen.getByRole('status').textContent).toBe('You are signed out.');
  });

  it('names the confirmed revocation time', () => {
    useSignOutNoticeStore.getState().signedOutEverywhere('2025-05-04T12:00:00.123Z');
    render(<SignInNotice reason="everywhere" />);
    expect(screen.getByRole('status').textContent).toContain(
      'up to 4 May 2025, 12:00:00.123 UTC were revoked',
    );
  });

  it('claims nothing about other sign-ins when the result was not confirmed', () => {
    render(<SignInNotice reason="everywhere-unconfirmed" />);
    const text = screen.getByRole('status').textContent ?? '';
    expect(text).toContain('This browser is signed out');
    expect(text).toMatch(/could not be confirmed/);
    expect(text).not.toMatch(/were revoked/);
  });

  it('says nothing without a reason', () => {
    render(<SignInNotice reason={undefined} />);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
