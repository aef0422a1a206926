import { describe, expect, it } from 'vitest';
import {
  blockerActionLabel,
  blockerSentence,
  limitText,
  ownedText,
  setPlanCommand,
} from './plan-text';

const limits = (organizations: number) => ({
  organizations,
  members_per_organization: 0,
  projects_per_organization: 0,
  invitations_per_day: 0,
});

describe('limitText', () => {
  it('says a 0 limit allows none, never that it is unlimited', () => {
    expect(limitText(0)).toBe('none on this plan');
    expect(limitText(0)).not.toMatch(/unlimited/i);
  });
  it('writes other limits as numbers', () => {
    expect(limitText(3)).toBe('3');
    expect(limitText(1500)).toBe('1,500');
  });
});

describe('blockerSentence', () => {
  it('explains each blocker from its identifier', () => {
    expect(blockerSentence('subscription_required', { state: 'free', limits: limits(0) })).toMatch(
      /needs a paid plan/,
    );
    expect(
      blockerSentence('subscription_inactive', { state: 'past_due', limits: limits(3) }),
    ).toMatch(/not active \(payment past due\).*resumed/);
    expect(
      blockerSentence('organization_limit_exceeded', { state: 'active', limits: limits(3) }),
    ).toMatch(/already owns as many organizations as its plan allows \(3 organizations\)/);
    expect(
      blockerSentence('organization_limit_exceeded', { state: 'active', limits: limits(1) }),
    ).toMatch(/\(1 organization\)/);
  });
});

describe('blockerActionLabel', () => {
  it('names the typed action of each blocker, and none when creation is allowed', () => {
    expect(blockerActionLabel('choose_plan')).toBe('Choose a plan');
    expect(blockerActionLabel('resume_subscription')).toBe('Resume subscription');
    expect(blockerActionLabel('manage_organization_limit')).toBe('Manage organizations');
    expect(blockerActionLabel('create_or_manage_organization')).toBeNull();
  });
});

describe('setPlanCommand', () => {
  it('is the operator command for the action', () => {
    expect(setPlanCommand('chen@lookout.dev', 'choose_plan', 'free')).toBe(
      'npm run account -- set-plan chen@lookout.dev <pro|scale>',
    );
    expect(setPlanCommand('a@b.c', 'resume_subscription', 'scale')).toBe(
      'npm run account -- set-plan a@b.c scale --state active',
    );
  });
});

describe('ownedText', () => {
  it('counts owned organizations against the limit, 0 meaning none allowed', () => {
    expect(ownedText(0, 0)).toBe('This account owns 0 organizations; its plan allows none.');
    expect(ownedText(1, 3)).toBe('This account owns 1 organization of the 3 its plan allows.');
  });
});
