import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config';

describe('sign-in throttling, trusted proxies and heartbeat settings', () => {
  it('have the documented defaults', () => {
    const c = readConfig({});
    expect(c.signInThrottle).toEqual({
      accountFailures: 5,
      addressFailures: 20,
      backoffSeconds: 1,
      lockoutSeconds: 900,
      forgetSeconds: 3600,
    });
    expect(c.trustedProxies).toEqual([]);
    expect(c.feedHeartbeatSeconds).toBe(30);
  });

  it('read trusted proxies as addresses and CIDR blocks, and refuse anything else', () => {
    expect(
      readConfig({ LOOKOUT_TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.1 ,fd00::/8,::1' })
        .trustedProxies,
    ).toEqual(['10.0.0.0/8', '192.0.2.1', 'fd00::/8', '::1']);
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/1', '::1/129', '10.0.0/8']) {
      expect(() => readConfig({ LOOKOUT_TRUSTED_PROXIES: bad })).toThrow(ConfigError);
    }
  });

  it('take a fractional heartbeat interval (tests) but no zero', () => {
    expect(readConfig({ LOOKOUT_FEED_HEARTBEAT_SECONDS: '0.5' }).feedHeartbeatSeconds).toBe(0.5);
    expect(() => readConfig({ LOOKOUT_FEED_HEARTBEAT_SECONDS: '0' })).toThrow(ConfigError);
  });
});

describe('the telemetry tier', () => {
  const PG = 'postgres://lookout@localhost/lookout';

  it('is ClickHouse by default: the engine under the data directory, or CLICKHOUSE_URL', () => {
    expect(readConfig({ LOOKOUT_DATA_DIR: '/srv/lookout' }).telemetry).toEqual({
      engine: 'clickhouse',
      url: null,
      database: 'lookout',
      embeddedPath: '/srv/lookout/clickhouse',
      cluster: null,
    });
    expect(
      readConfig({ LOOKOUT_DATA_DIR: '/srv/lookout', CLICKHOUSE_URL: 'http://ch:8123' }).telemetry,
    ).toMatchObject({ engine: 'clickhouse', url: 'http://ch:8123' });
  });

  it('names the cluster of a ClickHouse server, and refuses one without a server', () => {
    expect(
      readConfig({ CLICKHOUSE_URL: 'http://ch:8123', CLICKHOUSE_CLUSTER: 'lookout' }).telemetry,
    ).toMatchObject({ engine: 'clickhouse', url: 'http://ch:8123', cluster: 'lookout' });
    expect(() => readConfig({ CLICKHOUSE_CLUSTER: 'lookout' })).toThrow(
      /CLICKHOUSE_CLUSTER: set, but a cluster is reached through a server/,
    );
    expect(() =>
      readConfig({ CLICKHOUSE_URL: 'http://ch:8123', CLICKHOUSE_CLUSTER: "x' ON CLUSTER y" }),
    ).toThrow(/CLICKHOUSE_CLUSTER: must be a plain identifier/);
  });

  it("is PostgreSQL's own with DATABASE_URL (PostgreSQL only)", () => {
    expect(readConfig({ DATABASE_URL: PG }).telemetry).toEqual({ engine: 'state' });
    expect(readConfig({ DATABASE_URL: PG, LOOKOUT_TELEMETRY: 'state' }).telemetry).toEqual({
      engine: 'state',
    });
  });

  it('refuses state telemetry without PostgreSQL, and a ClickHouse URL it would not use', () => {
    expect(() => readConfig({ LOOKOUT_TELEMETRY: 'state' })).toThrow(
      /SQLite keeps state only, its telemetry goes to ClickHouse/,
    );
    expect(() =>
      readConfig({
        DATABASE_URL: PG,
        LOOKOUT_TELEMETRY: 'state',
        CLICKHOUSE_URL: 'http://ch:8123',
      }),
    ).toThrow(/keeps telemetry out of ClickHouse/);
  });
});
