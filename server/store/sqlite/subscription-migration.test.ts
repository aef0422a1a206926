import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from './database';
import { migrations } from './migrations';
import { openSqliteState } from '../sqlite-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('subscriptions of accounts stored before migration 12', () => {
  it('keep their tier; paid ones become monthly subscriptions in their state', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-subscription-'));
    dirs.push(dir);
    const db = new Database(databaseFile(dir));
    const before = migrations.findIndex((m) => m.includes('sdk_dropped_counters'));
    expect(before).toBe(11);
    for (const sql of migrations.slice(0, before)) db.exec(sql);
    db.pragma(`user_version = ${before}`);
    db.exec(`
      INSERT INTO accounts (id, email, password_hash, created_at, plan_tier, plan_status) VALUES
        ('a-free', 'free@x.test', 'h', 0, 'free', 'free'),
        ('a-pro', 'pro@x.test', 'h', 0, 'pro', 'active'),
        ('a-due', 'due@x.test', 'h', 0, 'scale', 'past_due');
    `);
    db.close();

    const store = openSqliteState(dir);
    try {
      expect(await store.usage.subscriptionOf('a-free')).toEqual({
        tier: 'free',
        billingInterval: 'none',
        state: 'free',
        periodStart: null,
        periodEnd: null,
      });
      const pro = await store.usage.subscriptionOf('a-pro');
      expect(pro).toMatchObject({ tier: 'pro', billingInterval: 'monthly', state: 'active' });
      expect(new Date(pro?.periodStart ?? 0).getUTCDate()).toBe(1);
      expect((pro?.periodEnd ?? 0) > (pro?.periodStart ?? 0)).toBe(true);
      expect(await store.usage.subscriptionOf('a-due')).toMatchObject({
        tier: 'scale',
        state: 'past_due',
      });
    } finally {
      await store.close();
    }
  });
});
