import { describe, expect, it } from 'vitest';
import { rulePermission, webhookPermission } from './rule-permission';

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
