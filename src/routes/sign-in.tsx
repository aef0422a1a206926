import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { SignInPage } from '../features/sign-in/sign-in-page';
import { signInReasons } from '../features/sign-in/sign-in-reason';

const signInSearchSchema = z.object({
  redirect: z.string().max(2048).optional().catch(undefined),
  reason: z.enum(signInReasons).optional().catch(undefined),
});

export const Route = createFileRoute('/sign-in')({
  validateSearch: signInSearchSchema,
  component: SignInRoute,
});

function SignInRoute() {
  const { redirect, reason } = Route.useSearch();
  return <SignInPage redirect={redirect} reason={reason} />;
}
