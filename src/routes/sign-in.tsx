import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { lenient, searchEnum } from '../lib/search-fields';
import { SignInPage } from '../features/sign-in/sign-in-page';
import { signInReasons } from '../features/sign-in/sign-in-reason';

const signInSearchSchema = z.object({
  redirect: lenient(z.string().check(z.maxLength(2048))),
  reason: searchEnum(signInReasons),
});

export const Route = createFileRoute('/sign-in')({
  validateSearch: signInSearchSchema,
  component: SignInRoute,
});

function SignInRoute() {
  const { redirect, reason } = Route.useSearch();
  return <SignInPage redirect={redirect} reason={reason} />;
}
