import { describe, expect, it } from 'vitest';
import { newRulePermission, rulePermission, webhookPermission } from './rule-permission';

describe('rulePermission', () => {
  it('lets owners and admins change rules', () => {
    expect(rulePermission({ role: 'owner', name: 'Shop' })).toEqual({ allowed: true });
    expect(rulePermission({ role: 'admin', name: 'Shop' })).toEqual({ allowed: true });
  });

  it('tells a member why and who can', () => {
    const result = rulePermission({ role: 'member', name: 'Shop' });
    expect(result.allowed).toBe(false);
    expect(!result.allowed && result.reason).toMatch(/owner or admin/);
  });

  it('refuses webhook changes to members', () => {
    expect(webhookPermission('member').allowed).toBe(false);
    expect(webhookPermission('admin').allowed).toBe(true);
  });
});

describe('newRulePermission', () => {
  it('allows a new rule when any project in scope lets the account create one', () => {
    expect(
      newRulePermission([
        { role: 'member', name: 'Shop' },
        { role: 'admin', name: 'Api' },
      ]),
    ).toEqual({ allowed: true });
  });

  it('says why when none does, and asks for a project when none is in scope', () => {
    const members = newRulePermission([{ role: 'member', name: 'Shop' }]);
    expect(!members.allowed && members.reason).toMatch(/owner or admin/);
    const none = newRulePermission([]);
    expect(!none.allowed && none.reason).toMatch(/Choose a project/);
  });
});
