import { describe, expect, it } from 'vitest';
import { LOGS, SINGLE, createTable, deleteFrom } from './clickhouse-schema';

const CLUSTER = { cluster: 'lookout' };

describe('the schema on one server and on a cluster', () => {
  it('deletes from the table itself on one server', () => {
    expect(deleteFrom('logs', SINGLE)).toBe('DELETE FROM logs');
  });

  it("deletes from every shard's local table on a cluster (a Distributed table takes no DELETE)", () => {
    expect(deleteFrom('logs', CLUSTER)).toBe("DELETE FROM logs_local ON CLUSTER 'lookout'");
  });

  it('names the same local table the cluster DDL creates', () => {
    const [local, distributed] = createTable(LOGS, CLUSTER);
    expect(local).toContain("CREATE TABLE IF NOT EXISTS logs_local ON CLUSTER 'lookout' (");
    expect(distributed).toContain("ENGINE = Distributed('lookout', currentDatabase(), logs_local,");
  });
});
