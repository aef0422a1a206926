import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authMutations } from '../../api/queries/auth';
import { useSignOutNoticeStore } from '../../api/sign-out-notice-store';
import { safeRedirect } from '../../lib/safe-redirect';
import { Button } from '../../ui/button';
import { StandalonePage } from '../../ui/standalone-page';
import { TextField } from '../../ui/text-field';
import { useDocumentTitle } from '../../ui/use-document-title';
import { SignInFailure } from './sign-in-failure';
import { SignInNotice } from './sign-in-notice';
import type { SignInReason } from './sign-in-reason';
import styles from './sign-in.module.css';

export function SignInPage({
  redirect,
  reason,
}: {
  redirect: string | undefined;
  reason: SignInReason | undefined;
}) {
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const signIn = useMutation(authMutations.signIn());
  const noticeShown = useSignOutNoticeStore((s) => s.noticeShown);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = {
      ...(email.trim() === '' ? { email: 'Enter your email.' } : {}),
      ...(password === '' ? { password: 'Enter your password.' } : {}),
    };
    setMissing(problems);
    if (problems.email || problems.password) return;
    signIn.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => {
          noticeShown();
          void navigate({ href: safeRedirect(redirect), replace: true });
        },
      },
    );
  };

  return (
    <StandalonePage>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="sign-in-heading">
        <h1 id="sign-in-heading" className={styles.heading}>
          Sign in to Lookout
        </h1>
        {!signIn.isError && <SignInNotice reason={reason} />}
        {signIn.isError && <SignInFailure error={signIn.error} />}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          inputMode="email"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={missing.email}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={missing.password}
        />
        <Button
          type="submit"
          variant="primary"
          className={styles.submit}
          disabled={signIn.isPending}
        >
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </StandalonePage>
  );
}
