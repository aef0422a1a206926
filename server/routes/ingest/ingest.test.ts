import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlanQuotas } from '../../domain/plans';
import { utcDay } from '../../domain/usage';
import { call, expectError, signIn, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import { storeSql } from '../../test-support/store-sql';
import {
  CONTEXT,
  NATIVE,
  SDK,
  T0,
  actionItem,
  addIngestKey,
  at,
  body,
  createTenant,
  idCounts,
  ingest,
  issueItem,
  logItem,
  metricItem,
  nativeBody,
  storedRow,
  storedRows,
  sdkBody,
  sdkEvent,
  spanItem,
  tableCounts,
  usageOf,
  type StoredData,
  type NativeCounts,
  type SdkCounts,
  type Tenant,
} from '../../test-support/telemetry';

type Svc = RunningService<true>;

const reviewAction = { code: 'review_ingested_telemetry', target: 'telemetry_reads' };
const fixRequest = { code: 'fix_request', target: 'request' };
const sendValidJson = { code: 'send_valid_json', target: 'request' };
const configureKey = { code: 'configure_ingest_key', target: 'project_ingest_key' };

const SDK_TEXT = {
  duplicate: 'SDK event ids must be unique within a batch',
  empty: 'SDK event batch requires at least one event',
  type: 'SDK event type is not supported by this ingest route',
};

const nativeCounts = (c: Partial<NativeCounts>) => ({
  issues: 0,
  logs: 0,
  trace_spans: 0,
  actions: 0,
  already_accepted: 0,
  next: expect.any(String) as unknown,
  next_action: reviewAction,
  ...c,
});

const sdkCounts = (c: Partial<SdkCounts>) => ({
  ...nativeCounts({}),
  metrics: 0,
  context_updated: false,
  ...c,
});

const errorText = (res: ApiResponse) => (res.body as { error: string }).error;
const uniqueRelease = () => `shop@${randomUUID().slice(0, 8)}`;

describe('ingestion: accepted batches', () => {
  let svc: Svc;
  let key = '';
  let project = '';
  let otherKey = '';
  let otherProject = '';
  beforeAll(async () => {
    svc = await startService({ demo: true });
    key = svc.creds.projects[0]?.ingest_key ?? '';
    project = svc.creds.projects[0]?.id ?? '';
    otherKey = svc.creds.projects[1]?.ingest_key ?? '';
    otherProject = svc.creds.projects[1]?.id ?? '';
  });
  afterAll(() => svc.close());

  it('native: counts of this batch only, and no metrics or context_updated keys', async () => {
    const batch = nativeBody({
      issues: [issueItem()],
      logs: [logItem(), logItem()],
      trace_spans: [spanItem(), spanItem(), spanItem()],
      actions: [actionItem()],
    });
    const res = await ingest(svc, NATIVE, key, batch);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(nativeCounts({ issues: 1, logs: 2, trace_spans: 3, actions: 1 }));
    expect(Object.keys(res.body as object)).not.toContain('metrics');
    expect(Object.keys(res.body as object)).not.toContain('context_updated');

    // A second batch reports only itself.
    const next = await ingest(svc, NATIVE, key, nativeBody({ logs: [logItem()] }));
    expect(next.body).toEqual(nativeCounts({ logs: 1 }));
  });

  it('an attribute key holding a lone surrogate is stored and indexed (found by ingest.fuzz on PostgreSQL: a 500)', async () => {
    const log = logItem({ attributes: { outer: { '\ud800': 'lone', ok: 1 } } });
    const res = await ingest(svc, NATIVE, key, nativeBody({ logs: [log] }));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(nativeCounts({ logs: 1 }));
    // One rule for text that is not Unicode: the lone surrogate reads back as U+FFFD, in keys
    // as in text columns (lone-surrogates.test.ts covers every field).
    const read = await call(svc.baseUrl, 'GET', `/api/logs/${log.id}`, {
      token: svc.creds.account_token,
    });
    expect(read.status).toBe(200);
    expect((read.body as { attributes: unknown }).attributes).toEqual({
      outer: { '\ufffd': 'lone', ok: 1 },
    });
  });

  it('a fingerprint holding a lone surrogate groups its occurrences into one issue', async () => {
    const fingerprint = `lone \ud800 ${randomUUID()}`;
    for (let n = 0; n < 2; n++) {
      const res = await ingest(
        svc,
        NATIVE,
        key,
        nativeBody({ issues: [issueItem({ fingerprint })] }),
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(nativeCounts({ issues: 1 }));
    }
    const counts = await storedRows(
      svc,
      `SELECT occurrence_count FROM issues WHERE project_id = ? AND fingerprint LIKE ?`,
      [project, `lone %${fingerprint.slice(-36)}`],
    );
    expect(counts).toEqual([{ occurrence_count: 2 }]);
  });

  it('native: a re-sent batch is all already_accepted and stores nothing twice', async () => {
    const logs = [logItem(), logItem()];
    const issues = [issueItem({ fingerprint: `resent-${randomUUID()}` })];
    const spans = [spanItem()];
    const actions = [actionItem()];
    const batch = nativeBody({ issues, logs, trace_spans: spans, actions });
    expect((await ingest(svc, NATIVE, key, batch)).status).toBe(200);
    const before = await tableCounts(svc, project);

    const again = await ingest(svc, NATIVE, key, batch);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(nativeCounts({ already_accepted: 5 }));
    expect(await tableCounts(svc, project)).toEqual(before);
    const ids = (items: { id: string }[]) => items.map((i) => i.id);
    expect(await idCounts(svc, 'logs', project, ids(logs))).toEqual([1, 1]);
    expect(await idCounts(svc, 'issue_occurrences', project, ids(issues))).toEqual([1]);
    expect(await idCounts(svc, 'spans', project, ids(spans))).toEqual([1]);
    expect(await idCounts(svc, 'actions', project, ids(actions))).toEqual([1]);
    // The issue group did not count the re-sent occurrence.
    const occurrences = (await storedRow(
      svc,
      `SELECT COUNT(*) AS n, MAX(i.occurrence_count) AS count FROM issues i
           JOIN issue_occurrences o ON o.issue_id = i.id WHERE o.project_id = ? AND o.id = ?`,
      [project, issues[0]?.id],
    )) as { n: number; count: number };
    expect(occurrences).toEqual({ n: 1, count: 1 });
  });

  it('native: a batch mixing new and accepted items counts each once', async () => {
    const old = logItem();
    await ingest(svc, NATIVE, key, nativeBody({ logs: [old] }));
    const res = await ingest(svc, NATIVE, key, nativeBody({ logs: [old, logItem()] }));
    expect(res.body).toEqual(nativeCounts({ logs: 1, already_accepted: 1 }));
  });

  it('native: an id sent in upper case is the same id', async () => {
    const item = logItem();
    await ingest(svc, NATIVE, key, nativeBody({ logs: [item] }));
    const res = await ingest(
      svc,
      NATIVE,
      key,
      nativeBody({ logs: [{ ...item, id: item.id.toUpperCase() }] }),
    );
    expect(res.body).toEqual(nativeCounts({ already_accepted: 1 }));
    expect(await idCounts(svc, 'logs', project, [item.id])).toEqual([1]);
  });

  it('SDK: all five counts and context_updated', async () => {
    const release = uniqueRelease();
    const events = [
      sdkEvent('issue', issueItem()),
      sdkEvent('log', logItem()),
      sdkEvent('log', logItem()),
      sdkEvent('trace_span', spanItem()),
      sdkEvent('action', actionItem()),
      sdkEvent('metric', metricItem()),
      sdkEvent('metric', metricItem()),
      sdkEvent('metric', metricItem()),
    ];
    const batch = sdkBody(events, { context: { ...CONTEXT, release } });
    const res = await ingest(svc, SDK, key, batch);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(
      sdkCounts({
        issues: 1,
        logs: 2,
        trace_spans: 1,
        actions: 1,
        metrics: 3,
        context_updated: true,
      }),
    );

    const again = await ingest(svc, SDK, key, batch);
    expect(again.body).toEqual(sdkCounts({ already_accepted: 8, context_updated: false }));
    const metricIds = events.filter((e) => e.type === 'metric').map((e) => e.id);
    expect(await idCounts(svc, 'metric_samples', project, metricIds)).toEqual([1, 1, 1]);
  });

  it('SDK: context_updated is true only when the batch brings a new release/environment/service', async () => {
    const release = uniqueRelease();
    const first = sdkBody([sdkEvent('log', logItem())], { context: { ...CONTEXT, release } });
    expect(body<SdkCounts>(await ingest(svc, SDK, key, first)).context_updated).toBe(true);

    // Same combination, new items: nothing new about the context.
    const same = sdkBody([sdkEvent('log', logItem())], { context: { ...CONTEXT, release } });
    expect(body<SdkCounts>(await ingest(svc, SDK, key, same)).context_updated).toBe(false);

    // Each part of the combination counts: a new environment, a new service.
    const env = sdkBody([sdkEvent('log', logItem({ environment: 'staging' }))], {
      context: { ...CONTEXT, release },
    });
    expect(body<SdkCounts>(await ingest(svc, SDK, key, env)).context_updated).toBe(true);
    const service = sdkBody([sdkEvent('action', actionItem({ service_name: 'web' }))], {
      context: { ...CONTEXT, release },
    });
    expect(body<SdkCounts>(await ingest(svc, SDK, key, service)).context_updated).toBe(true);

    // The combination is per project: the same one is new in another project.
    const elsewhere = sdkBody([sdkEvent('log', logItem())], { context: { ...CONTEXT, release } });
    expect(body<SdkCounts>(await ingest(svc, SDK, otherKey, elsewhere)).context_updated).toBe(true);
  });

  it('the same id in another project is a different item', async () => {
    const item = logItem();
    const a = await ingest(svc, NATIVE, key, nativeBody({ logs: [item] }));
    const b = await ingest(svc, NATIVE, otherKey, nativeBody({ logs: [item] }));
    expect(a.body).toEqual(nativeCounts({ logs: 1 }));
    expect(b.body).toEqual(nativeCounts({ logs: 1 }));
    expect(await idCounts(svc, 'logs', project, [item.id])).toEqual([1]);
    expect(await idCounts(svc, 'logs', otherProject, [item.id])).toEqual([1]);

    const metric = metricItem();
    for (const k of [key, otherKey]) {
      const res = await ingest(svc, SDK, k, sdkBody([sdkEvent('metric', metric)]));
      expect(body<SdkCounts>(res).metrics).toBe(1);
    }
  });

  it('a body project_id equal to the key’s project is accepted', async () => {
    const res = await ingest(svc, NATIVE, key, {
      ...nativeBody({ logs: [logItem()] }),
      project_id: project,
    });
    expect(res.body).toEqual(nativeCounts({ logs: 1 }));
    const sdk = await ingest(
      svc,
      SDK,
      key,
      sdkBody([sdkEvent('log', logItem())], { project_id: project }),
    );
    expect(body<SdkCounts>(sdk).logs).toBe(1);
  });

  it('items take release, environment and service from the envelope unless they set their own', async () => {
    const inherits = logItem();
    const own = logItem({ release: 'own@2', environment: 'staging', service_name: 'worker' });
    await ingest(svc, NATIVE, key, nativeBody({ logs: [inherits, own] }));
    const rows = (await storedRows(
      svc,
      'SELECT id, release, environment, service_name FROM logs WHERE id IN (?, ?)',
      [inherits.id, own.id],
    )) as { id: string; release: string; environment: string; service_name: string }[];
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[inherits.id]).toMatchObject(CONTEXT);
    expect(byId[own.id]).toMatchObject({
      release: 'own@2',
      environment: 'staging',
      service_name: 'worker',
    });
  });
});

describe('ingestion: validation', () => {
  let svc: Svc;
  let key = '';
  let project = '';
  beforeAll(async () => {
    svc = await startService({ demo: true });
    key = svc.creds.projects[0]?.ingest_key ?? '';
    project = svc.creds.projects[0]?.id ?? '';
  });
  afterAll(() => svc.close());

  describe('severity', () => {
    it.each([
      ['trace', 'info'],
      ['debug', 'info'],
      ['info', 'info'],
      ['warn', 'warning'],
      ['warning', 'warning'],
      ['error', 'error'],
      ['fatal', 'critical'],
      ['critical', 'critical'],
    ])('log severity %s is stored as %s (and as level too)', async (input, canonical) => {
      const bySeverity = logItem({ severity: input });
      const byLevel = logItem({ severity: undefined, level: input });
      const res = await ingest(svc, NATIVE, key, nativeBody({ logs: [bySeverity, byLevel] }));
      expect(res.body).toEqual(nativeCounts({ logs: 2 }));
      const stored = (await storedRows(svc, 'SELECT severity FROM logs WHERE id IN (?, ?)', [
        bySeverity.id,
        byLevel.id,
      ])) as { severity: string }[];
      expect(stored.map((r) => r.severity)).toEqual([canonical, canonical]);
    });

    it('issue and breadcrumb severities are stored canonical; a log without one is info', async () => {
      const issue = issueItem({
        severity: 'fatal',
        fingerprint: `sev-${randomUUID()}`,
        breadcrumbs: [{ timestamp: T0, level: 'warn', message: 'retrying' }],
      });
      const bare = logItem({ severity: undefined });
      const res = await ingest(
        svc,
        SDK,
        key,
        sdkBody([sdkEvent('issue', issue), sdkEvent('log', bare)]),
      );
      expect(res.status, res.text).toBe(200);
      const row = (await storedRow(
        svc,
        'SELECT severity, breadcrumbs FROM issue_occurrences WHERE id = ?',
        [issue.id],
      )) as { severity: string; breadcrumbs: string };
      expect(row.severity).toBe('critical');
      expect(JSON.parse(row.breadcrumbs)).toEqual([
        { timestamp: T0, level: 'warning', message: 'retrying' },
      ]);
      const log = (await storedRow(svc, 'SELECT severity FROM logs WHERE id = ?', [bare.id])) as {
        severity: string;
      };
      expect(log.severity).toBe('info');
    });

    it('severity and level with the same meaning are accepted', async () => {
      const res = await ingest(
        svc,
        NATIVE,
        key,
        nativeBody({ logs: [logItem({ severity: 'warning', level: 'warn' })] }),
      );
      expect(res.body).toEqual(nativeCounts({ logs: 1 }));
    });
  });

  /** Each case is a native envelope that must be refused as a whole. */
  const invalidNative: [string, () => Record<string, unknown>, RegExp][] = [
    [
      'an unknown severity',
      () => nativeBody({ logs: [logItem({ severity: 'verbose' })] }),
      /logs\[0\]\.severity/,
    ],
    [
      'an unknown level',
      () => nativeBody({ logs: [logItem({ severity: undefined, level: 'loud' })] }),
      /logs\[0\]\.level/,
    ],
    [
      'a severity in capitals',
      () => nativeBody({ logs: [logItem({ severity: 'ERROR' })] }),
      /severity/,
    ],
    [
      'an unknown issue severity',
      () => nativeBody({ issues: [issueItem({ severity: 'panic' })] }),
      /issues\[0\]\.severity/,
    ],
    [
      'severity and level in conflict',
      () => nativeBody({ logs: [logItem({ severity: 'warn', level: 'error' })] }),
      /logs\[0\].*conflict/,
    ],
    [
      'a missing release',
      () => ({ ...nativeBody({ logs: [logItem()] }), release: undefined }),
      /logs\[0\]\.release/,
    ],
    [
      'a blank envelope release',
      () => ({ ...nativeBody({ logs: [logItem()] }), release: '   ' }),
      /release/,
    ],
    [
      'a blank item release',
      () => nativeBody({ logs: [logItem({ release: '' })] }),
      /logs\[0\]\.release/,
    ],
    [
      'a missing environment',
      () => ({ ...nativeBody({ actions: [actionItem()] }), environment: undefined }),
      /actions\[0\]\.environment/,
    ],
    [
      'a blank item environment',
      () => nativeBody({ trace_spans: [spanItem({ environment: ' \t' })] }),
      /trace_spans\[0\]\.environment/,
    ],
    [
      'a timestamp with an offset',
      () => nativeBody({ logs: [logItem({ occurred_at: '2025-03-03T10:00:00+02:00' })] }),
      /logs\[0\]\.occurred_at/,
    ],
    [
      'a timestamp without a zone',
      () => nativeBody({ logs: [logItem({ occurred_at: '2025-03-03T08:00:00' })] }),
      /occurred_at/,
    ],
    [
      'a date only',
      () => nativeBody({ issues: [issueItem({ occurred_at: '2025-03-03' })] }),
      /issues\[0\]\.occurred_at/,
    ],
    [
      'a garbage timestamp',
      () => nativeBody({ actions: [actionItem({ occurred_at: 'yesterday' })] }),
      /occurred_at/,
    ],
    [
      'an impossible date',
      () => nativeBody({ trace_spans: [spanItem({ started_at: '2025-02-30T00:00:00Z' })] }),
      /started_at/,
    ],
    [
      'a trace_id in capitals',
      () => nativeBody({ logs: [logItem({ trace_id: 'A'.repeat(32) })] }),
      /trace_id/,
    ],
    [
      'a trace_id of 31 characters',
      () => nativeBody({ logs: [logItem({ trace_id: 'a'.repeat(31) })] }),
      /trace_id/,
    ],
    [
      'a trace_id that is not hex',
      () => nativeBody({ trace_spans: [spanItem({ trace_id: 'g'.repeat(32) })] }),
      /trace_id/,
    ],
    [
      'a span_id of 15 characters',
      () => nativeBody({ trace_spans: [spanItem({ span_id: 'b'.repeat(15) })] }),
      /span_id/,
    ],
    [
      'a span_id in capitals',
      () => nativeBody({ logs: [logItem({ trace_id: 'a'.repeat(32), span_id: 'B'.repeat(16) })] }),
      /span_id/,
    ],
    [
      'a metrics key (even empty)',
      () => ({ ...nativeBody({ logs: [logItem()] }), metrics: [] }),
      /metrics/,
    ],
    [
      'an item with an unknown key',
      () => nativeBody({ logs: [logItem({ colour: 'red' })] }),
      /logs\[0\].*colour/,
    ],
    [
      'an envelope with an unknown key',
      () => ({ ...nativeBody({ logs: [logItem()] }), event: 'x' }),
      /event/,
    ],
    [
      'an item id that is not a UUID',
      () => nativeBody({ logs: [logItem({ id: 'log-1' })] }),
      /logs\[0\]\.id/,
    ],
    ['an envelope with no items', () => nativeBody({ logs: [] }), /no items/],
    [
      'an id repeated within the envelope',
      () => {
        const l = logItem();
        return nativeBody({ logs: [l, { ...l, message: 'another item' }] });
      },
      /^item ids must be unique within a batch: logs\[1\]\.id repeats logs\[0\]\.id$/,
    ],
    [
      'an id repeated across streams',
      () => {
        const l = logItem();
        return nativeBody({ logs: [l], actions: [actionItem({ id: l.id })] });
      },
      /unique within a batch/,
    ],
  ];

  it.each(invalidNative)(
    'native: %s is 422 validation_failed naming the field',
    async (_name, build, names) => {
      const before = await tableCounts(svc, project);
      const res = await ingest(svc, NATIVE, key, build());
      expectError(res, 422, 'validation_failed', fixRequest);
      expect(errorText(res)).toMatch(names);
      expect(await tableCounts(svc, project)).toEqual(before);
    },
  );

  describe('nesting depth of attributes (found by ingest.fuzz.test.ts: 5,000 levels was a 500)', () => {
    /** `{"k": {"k": … 1 …}}`, `levels` objects deep, counting the attributes object itself. */
    const nested = (levels: number): unknown => {
      let v: unknown = 1;
      for (let i = 0; i < levels; i += 1) v = { k: v };
      return v;
    };
    // Built as text: JSON.stringify itself overflows the stack on the deepest ones.
    const deepRaw = (levels: number, asArrays: boolean) => {
      const inner = asArrays
        ? `${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}`
        : `${'{"k":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}`;
      const item = logItem({ attributes: '__deep__' });
      return {
        id: item.id,
        raw: JSON.stringify(nativeBody({ logs: [item] })).replace('"__deep__"', `{"k":${inner}}`),
      };
    };

    it.each([
      ['65 levels of objects', 65, false],
      ['65 levels of arrays', 65, true],
      ['5,000 levels of objects', 5_000, false],
      ['100,000 levels of arrays', 100_000, true],
    ])(
      '%s in log attributes is 422 validation_failed and stores nothing',
      async (_n, levels, arrays) => {
        const { id, raw } = deepRaw(levels, arrays);
        const before = await tableCounts(svc, project);
        const res = await call(svc.baseUrl, 'POST', NATIVE, { token: key, raw });
        expectError(res, 422, 'validation_failed', fixRequest);
        expect(errorText(res)).toMatch(/logs\[0\]\.attributes: .*64 levels/);
        expect(await tableCounts(svc, project)).toEqual(before);
        expect(await idCounts(svc, 'logs', project, [id])).toEqual([0]);
      },
    );

    it('every free-form field is limited: properties, breadcrumb data, span event attributes', async () => {
      const deep = nested(65);
      const bodies = [
        nativeBody({ actions: [actionItem({ properties: deep })] }),
        nativeBody({
          issues: [issueItem({ breadcrumbs: [{ timestamp: T0, message: 'm', data: deep }] })],
        }),
        nativeBody({
          trace_spans: [spanItem({ events: [{ name: 'e', timestamp: T0, attributes: deep }] })],
        }),
        sdkBody([sdkEvent('metric', metricItem({ attributes: deep }))]),
      ];
      for (const b of bodies) {
        const res = await ingest(svc, 'events' in b ? SDK : NATIVE, key, b);
        expectError(res, 422, 'validation_failed', fixRequest);
        expect(errorText(res)).toMatch(/64 levels/);
      }
    });

    it('64 levels are accepted and read back as sent', async () => {
      const item = logItem({ attributes: nested(64) });
      const res = await ingest(svc, NATIVE, key, nativeBody({ logs: [item] }));
      expect(res.body).toEqual(nativeCounts({ logs: 1 }));
      const stored = (await storedRow(svc, 'SELECT attributes FROM logs WHERE id = ?', [
        item.id,
      ])) as { attributes: string };
      expect(JSON.parse(stored.attributes)).toEqual(item.attributes);
    });
  });

  describe('a "__proto__" key (found by ingest.fuzz.test.ts: accepted, then silently not stored)', () => {
    // Built as text: an object literal or JSON.stringify would not carry it as a key.
    const withKey = (where: string) => {
      const item = logItem({ attributes: '__here__' });
      return {
        id: item.id,
        raw: JSON.stringify(nativeBody({ logs: [item] })).replace('"__here__"', where),
      };
    };

    it.each([
      ['as an attribute', '{"__proto__": {"admin": true}, "a": 1}', '/logs/0/attributes/__proto__'],
      ['deeper in the attributes', '{"a": [{"__proto__": 1}]}', '/logs/0/attributes/a/0/__proto__'],
      [
        'spelled with escapes',
        '{"\\u005f\\u005fproto\\u005f\\u005f": 1}',
        '/logs/0/attributes/__proto__',
      ],
    ])('%s is 422 validation_failed naming where, and stores nothing', async (_n, attrs, at) => {
      const { id, raw } = withKey(attrs);
      const before = await tableCounts(svc, project);
      const res = await call(svc.baseUrl, 'POST', NATIVE, { token: key, raw });
      expectError(res, 422, 'validation_failed', fixRequest);
      expect(errorText(res)).toBe(`the key "__proto__" is not accepted (at ${at})`);
      expect(await tableCounts(svc, project)).toEqual(before);
      expect(await idCounts(svc, 'logs', project, [id])).toEqual([0]);
    });

    it('as a value, or inside a longer key, it is ordinary text and stored', async () => {
      const item = logItem({
        message: '__proto__',
        attributes: { note: '__proto__', x__proto__: 1 },
      });
      const res = await ingest(svc, NATIVE, key, nativeBody({ logs: [item] }));
      expect(res.body).toEqual(nativeCounts({ logs: 1 }));
      expect(await idCounts(svc, 'logs', project, [item.id])).toEqual([1]);
    });
  });

  it('an SDK event is validated like a native item', async () => {
    const cases = [
      logItem({ severity: 'verbose' }),
      logItem({ severity: 'warn', level: 'critical' }),
      logItem({ occurred_at: '2025-03-03T10:00:00+02:00' }),
      logItem({ release: '  ' }),
      logItem({ trace_id: 'A'.repeat(32) }),
      logItem({ unknown: true }),
    ];
    for (const item of cases) {
      const res = await ingest(svc, SDK, key, sdkBody([sdkEvent('log', item)]));
      expectError(res, 422, 'validation_failed', fixRequest);
      expect(errorText(res)).toMatch(/^invalid telemetry: events\[0\]|^events\[0\]/);
    }
    const noRelease = sdkBody([sdkEvent('log', logItem())], {
      context: { environment: 'production', service_name: 'web' },
    });
    expectError(await ingest(svc, SDK, key, noRelease), 422, 'validation_failed', fixRequest);
  });

  describe('body and content type', () => {
    it.each(['[]', '"logs"', 'null', '42'])(
      'native: JSON that is not an object (%s) is 422 invalid_json',
      async (raw) => {
        const res = await call(svc.baseUrl, 'POST', NATIVE, { token: key, raw });
        expectError(res, 422, 'invalid_json', sendValidJson);
      },
    );

    it.each(['[]', 'true'])(
      'SDK: JSON that is not an object (%s) is 422 invalid_json',
      async (raw) => {
        const res = await call(svc.baseUrl, 'POST', SDK, { token: key, raw });
        expectError(res, 422, 'invalid_json', sendValidJson);
      },
    );

    it.each([NATIVE, SDK])('%s: unreadable JSON is 400 invalid_json', async (route) => {
      const res = await call(svc.baseUrl, 'POST', route, { token: key, raw: '{"logs": [' });
      expectError(res, 400, 'invalid_json', sendValidJson);
    });

    it.each([NATIVE, SDK])('%s: a body that is not JSON is 415 invalid_json', async (route) => {
      const raw = JSON.stringify(nativeBody({ logs: [logItem()] }));
      const res = await call(svc.baseUrl, 'POST', route, {
        token: key,
        raw,
        contentType: 'text/plain',
      });
      expectError(res, 415, 'invalid_json', sendValidJson);
    });
  });

  describe('SDK batch rejections (spec texts)', () => {
    const rejected: [string, () => unknown, string][] = [
      ['events missing', () => ({ ...sdkBody([]), events: undefined }), SDK_TEXT.empty],
      ['events empty', () => sdkBody([]), SDK_TEXT.empty],
      [
        'a repeated id',
        () => {
          const log = logItem();
          return sdkBody([
            sdkEvent('log', log),
            sdkEvent('log', logItem()),
            sdkEvent('action', actionItem({ id: log.id })),
          ]);
        },
        SDK_TEXT.duplicate,
      ],
      [
        'a repeated id in another case',
        () => {
          const log = logItem();
          return sdkBody([
            sdkEvent('log', log),
            sdkEvent('log', logItem({ id: log.id.toUpperCase() })),
          ]);
        },
        SDK_TEXT.duplicate,
      ],
      [
        'an unknown type',
        () => sdkBody([sdkEvent('log', logItem()), sdkEvent('profile', logItem())]),
        SDK_TEXT.type,
      ],
      ['a missing type', () => sdkBody([logItem()]), SDK_TEXT.type],
      ['a type of another case', () => sdkBody([sdkEvent('Log', logItem())]), SDK_TEXT.type],
      ['an event that is not an object', () => sdkBody(['log']), SDK_TEXT.type],
    ];
    it.each(rejected)(
      '%s is 422 validation_failed with the exact text',
      async (_name, build, text) => {
        const before = await tableCounts(svc, project);
        const res = await ingest(svc, SDK, key, build());
        expectError(res, 422, 'validation_failed', fixRequest);
        expect(errorText(res)).toBe(text);
        expect(await tableCounts(svc, project)).toEqual(before);
      },
    );
  });

  it.each([
    ['native', NATIVE, (items: ReturnType<typeof logItem>[]) => nativeBody({ logs: items })],
    [
      'SDK',
      SDK,
      (items: ReturnType<typeof logItem>[]) => sdkBody(items.map((i) => sdkEvent('log', i))),
    ],
  ])(
    '%s: three valid items and a fourth invalid store nothing and count no usage',
    async (_n, route, build) => {
      const items = [logItem(), logItem(), logItem(), logItem({ occurred_at: 'not a time' })];
      const before = await tableCounts(svc, project);
      const usage = await usageOf(svc, project);
      const res = await ingest(svc, route, key, build(items));
      expectError(res, 422, 'validation_failed', fixRequest);
      expect(errorText(res)).toMatch(/\[3\]/);
      expect(await tableCounts(svc, project)).toEqual(before);
      expect(await usageOf(svc, project)).toEqual(usage);
      expect(
        await idCounts(
          svc,
          'logs',
          project,
          items.map((i) => i.id),
        ),
      ).toEqual([0, 0, 0, 0]);
    },
  );

  it('a valid batch after a rejected one is stored in full', async () => {
    const items = [logItem(), logItem(), logItem()];
    const res = await ingest(svc, NATIVE, key, nativeBody({ logs: items }));
    expect(res.body).toEqual(nativeCounts({ logs: 3 }));
  });
});

describe('ingestion: credentials', () => {
  let svc: Svc;
  let key = '';
  let project = '';
  let otherProject = '';
  beforeAll(async () => {
    svc = await startService({ demo: true });
    key = svc.creds.projects[0]?.ingest_key ?? '';
    project = svc.creds.projects[0]?.id ?? '';
    otherProject = svc.creds.projects[1]?.id ?? '';
  });
  afterAll(() => svc.close());

  const valid = () => nativeBody({ logs: [logItem()] });

  it('native: no bearer, an account token, an unknown lk_ik_ key, a revoked or expired key are 401 ingest_key_invalid', async () => {
    const access = (await signIn(svc.baseUrl, svc.creds.email, svc.creds.password)).accessToken;
    const revoked = await addIngestKey(svc, project, { revokedAt: svc.clock.now() });
    const expired = await addIngestKey(svc, project, { expiresAt: svc.clock.now() });
    const before = await tableCounts(svc);
    const tokens: (string | undefined)[] = [
      undefined,
      svc.creds.account_token,
      access,
      'lk_ik_not-a-real-key',
      revoked,
      expired,
    ];
    for (const token of tokens) {
      const res = await call(svc.baseUrl, 'POST', NATIVE, { token, json: valid() });
      expectError(res, 401, 'ingest_key_invalid', configureKey);
      if (token) expect(res.text).not.toContain(token);
    }
    expect(await tableCounts(svc)).toEqual(before);
  });

  it('SDK: no bearer or an account token is 401 unauthorized; a bad ingest key is ingest_key_invalid', async () => {
    const events = sdkBody([sdkEvent('log', logItem())]);
    for (const token of [undefined, svc.creds.account_token]) {
      const res = await call(svc.baseUrl, 'POST', SDK, { token, json: events });
      expectError(res, 401, 'unauthorized', configureKey);
    }
    const revoked = await addIngestKey(svc, project, { revokedAt: svc.clock.now() });
    for (const token of ['lk_ik_unknown', revoked]) {
      const res = await call(svc.baseUrl, 'POST', SDK, { token, json: events });
      expectError(res, 401, 'ingest_key_invalid', configureKey);
    }
  });

  it('a body project_id of another project is 401 ingest_key_invalid and stores nothing', async () => {
    const before = await tableCounts(svc);
    const native = await ingest(svc, NATIVE, key, { ...valid(), project_id: otherProject });
    expectError(native, 401, 'ingest_key_invalid', configureKey);
    const sdk = await ingest(
      svc,
      SDK,
      key,
      sdkBody([sdkEvent('log', logItem())], { project_id: otherProject }),
    );
    expectError(sdk, 401, 'ingest_key_invalid', configureKey);
    expect(await tableCounts(svc)).toEqual(before);
  });

  it('an ingest key on an account read route is 401 unauthorized', async () => {
    expectError(
      await call(svc.baseUrl, 'GET', '/api/projects', { token: key }),
      401,
      'unauthorized',
    );
    expectError(
      await call(svc.baseUrl, 'POST', '/api/feed/ticket', { token: key }),
      401,
      'unauthorized',
    );
  });

  it.each([
    ['GET', NATIVE],
    ['PUT', NATIVE],
    ['DELETE', NATIVE],
    ['GET', SDK],
    ['PUT', SDK],
  ])('%s %s is 405 method_not_allowed naming POST', async (method, route) => {
    const res = await call(svc.baseUrl, method, route, { token: key });
    expectError(res, 405, 'method_not_allowed');
    expect((res.body as { next: string }).next).toContain(`POST ${route}`);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

/**
 * Reads an issue group and its latest occurrence straight from the database: the group of the
 * occurrence (where occurrences are stored), then the group with the latest occurrence the
 * state store keeps beside it.
 */
async function issueOf(svc: StoredData, project: string, occurrenceId: string) {
  const occurrence = await storedRow<{ issue_id: string }>(
    svc,
    'SELECT issue_id FROM issue_occurrences WHERE project_id = ? AND id = ?',
    [project, occurrenceId],
  );
  return (await storedRow(
    svc,
    `SELECT i.id, i.status, i.occurrence_count, i.first_seen_at, i.last_seen_at,
           l.release AS latest_release, l.trace_id AS latest_trace_id, l.id AS latest_id
         FROM issues i
         JOIN issue_occurrences l ON l.seq = i.latest_occurrence_seq
         WHERE i.id = ?`,
    [occurrence?.issue_id ?? ''],
  )) as {
    id: string;
    status: string;
    occurrence_count: number;
    first_seen_at: number;
    last_seen_at: number;
    latest_release: string;
    latest_trace_id: string | null;
    latest_id: string;
  };
}

async function setIssueStatus(svc: Svc, issueId: string, status: string) {
  const sql = storeSql(svc);
  try {
    // RETURNING: a statement that answers rows on both stores.
    await sql.rows('UPDATE issues SET status = ? WHERE id = ? RETURNING id', [status, issueId]);
  } finally {
    await sql.close();
  }
}

describe('ingestion: issue grouping', () => {
  let svc: Svc;
  let key = '';
  let project = '';
  beforeAll(async () => {
    svc = await startService({ demo: true });
    key = svc.creds.projects[2]?.ingest_key ?? '';
    project = svc.creds.projects[2]?.id ?? '';
  });
  afterAll(() => svc.close());

  const stack = (line: number, type: string) =>
    `${type}: boom\n    at loadCart (src/cart-${type}.ts:${line}:7)\n    at handler (src/routes.ts:${line + 30}:3)`;

  it('the same exception type and stack (other line numbers) is one issue; times are min and max', async () => {
    const type = `CartError${randomUUID().slice(0, 6)}`;
    const later = issueItem({
      occurred_at: at(60_000),
      exception: { type },
      stack_trace: stack(10, type),
      release: 'shop@2.0.0',
      trace_id: 'c'.repeat(32),
    });
    const earlier = issueItem({
      occurred_at: at(0),
      exception: { type },
      stack_trace: stack(99, type),
      release: 'shop@1.0.0',
      trace_id: null,
      message: 'another message entirely',
    });
    const first = await ingest(svc, NATIVE, key, nativeBody({ issues: [later] }));
    expect(first.body).toEqual(nativeCounts({ issues: 1 }));
    const second = await ingest(svc, NATIVE, key, nativeBody({ issues: [earlier] }));
    expect(second.body).toEqual(nativeCounts({ issues: 1 }));

    const a = await issueOf(svc, project, later.id);
    const b = await issueOf(svc, project, earlier.id);
    expect(b.id).toBe(a.id);
    expect(b.occurrence_count).toBe(2);
    expect(b.first_seen_at).toBe(Date.parse(at(0)));
    expect(b.last_seen_at).toBe(Date.parse(at(60_000)));
    // The older occurrence arrived last but does not replace the group's latest fields.
    expect(b.latest_id).toBe(later.id);
    expect(b.latest_release).toBe('shop@2.0.0');
    expect(b.latest_trace_id).toBe('c'.repeat(32));
    // ...while the occurrence itself keeps its own release and trace.
    const own = await storedRow(
      svc,
      'SELECT release, trace_id FROM issue_occurrences WHERE id = ?',
      [earlier.id],
    );
    expect(own).toEqual({ release: 'shop@1.0.0', trace_id: null });

    // A newer one replaces them.
    const newest = issueItem({
      occurred_at: at(120_000),
      exception: { type },
      stack_trace: stack(5, type),
      release: 'shop@3.0.0',
    });
    await ingest(svc, NATIVE, key, nativeBody({ issues: [newest] }));
    const c = await issueOf(svc, project, newest.id);
    expect(c).toMatchObject({
      id: a.id,
      occurrence_count: 3,
      last_seen_at: Date.parse(at(120_000)),
      first_seen_at: Date.parse(at(0)),
      latest_release: 'shop@3.0.0',
      latest_trace_id: null,
    });
  });

  it('another exception type with the same stack is another issue', async () => {
    const one = issueItem({ exception: { type: 'AError' }, stack_trace: stack(1, 'Same') });
    const two = issueItem({ exception: { type: 'BError' }, stack_trace: stack(1, 'Same') });
    await ingest(svc, NATIVE, key, nativeBody({ issues: [one, two] }));
    expect((await issueOf(svc, project, one.id)).id).not.toBe(
      (await issueOf(svc, project, two.id)).id,
    );
  });

  it('an explicit fingerprint groups occurrences that differ otherwise; occurrences in one batch count each', async () => {
    const fingerprint = `checkout-timeout-${randomUUID()}`;
    const items = [
      issueItem({ fingerprint, exception: { type: 'TimeoutError' }, occurred_at: at(5_000) }),
      issueItem({
        fingerprint,
        exception: { type: 'SocketError' },
        stack_trace: null,
        occurred_at: at(1_000),
      }),
      issueItem({
        fingerprint,
        exception: undefined,
        stack_trace: undefined,
        message: 'x',
        occurred_at: at(3_000),
      }),
    ];
    const res = await ingest(svc, NATIVE, key, nativeBody({ issues: items }));
    expect(res.body).toEqual(nativeCounts({ issues: 3 }));
    const group = await issueOf(svc, project, items[2]?.id ?? '');
    expect(group).toMatchObject({
      occurrence_count: 3,
      first_seen_at: Date.parse(at(1_000)),
      last_seen_at: Date.parse(at(5_000)),
      latest_id: items[0]?.id,
    });
    const fp = (await storedRow(svc, 'SELECT fingerprint FROM issues WHERE id = ?', [
      group.id,
    ])) as { fingerprint: string };
    expect(fp.fingerprint).toBe(fingerprint);
  });

  it('breadcrumbs and breadcrumbs_truncated are kept per occurrence', async () => {
    const fingerprint = `crumbs-${randomUUID()}`;
    const crumbs = [
      { timestamp: at(-2_000), category: 'ui.click', message: 'Pay', data: { button: 'pay' } },
      {
        timestamp: at(-1_000),
        category: 'http',
        type: 'http',
        level: 'error',
        message: 'POST /pay 502',
      },
    ];
    const withCrumbs = issueItem({ fingerprint, breadcrumbs: crumbs, breadcrumbs_truncated: true });
    const without = issueItem({ fingerprint, occurred_at: at(1_000) });
    await ingest(svc, NATIVE, key, nativeBody({ issues: [withCrumbs, without] }));
    const rows = (await storedRows(
      svc,
      'SELECT id, breadcrumbs, breadcrumbs_truncated FROM issue_occurrences WHERE id IN (?, ?)',
      [withCrumbs.id, without.id],
    )) as { id: string; breadcrumbs: string | null; breadcrumbs_truncated: number }[];
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(JSON.parse(byId[withCrumbs.id]?.breadcrumbs ?? 'null')).toEqual(crumbs);
    expect(byId[withCrumbs.id]?.breadcrumbs_truncated).toBe(1);
    expect(byId[without.id]?.breadcrumbs).toBeNull();
    expect(byId[without.id]?.breadcrumbs_truncated).toBe(0);
  });

  it('a resolved issue that occurs again is unresolved; an archived one stays archived', async () => {
    const resolvedFp = `regression-${randomUUID()}`;
    const archivedFp = `archived-${randomUUID()}`;
    const r1 = issueItem({ fingerprint: resolvedFp });
    const a1 = issueItem({ fingerprint: archivedFp });
    await ingest(svc, NATIVE, key, nativeBody({ issues: [r1, a1] }));
    const resolved = await issueOf(svc, project, r1.id);
    const archived = await issueOf(svc, project, a1.id);
    expect(resolved.status).toBe('unresolved');
    await setIssueStatus(svc, resolved.id, 'resolved');
    await setIssueStatus(svc, archived.id, 'archived');

    // A re-sent occurrence is not a new one: the status stays.
    await ingest(svc, NATIVE, key, nativeBody({ issues: [r1] }));
    expect((await issueOf(svc, project, r1.id)).status).toBe('resolved');

    const r2 = issueItem({ fingerprint: resolvedFp, occurred_at: at(10_000) });
    const a2 = issueItem({ fingerprint: archivedFp, occurred_at: at(10_000) });
    await ingest(svc, NATIVE, key, nativeBody({ issues: [r2, a2] }));
    expect(await issueOf(svc, project, r2.id)).toMatchObject({
      id: resolved.id,
      status: 'unresolved',
      occurrence_count: 2,
    });
    expect(await issueOf(svc, project, a2.id)).toMatchObject({
      id: archived.id,
      status: 'archived',
      occurrence_count: 2,
    });
    // An occurrence older than the newest one, arriving late, is not a regression.
    await setIssueStatus(svc, resolved.id, 'resolved');
    const late = issueItem({ fingerprint: resolvedFp, occurred_at: at(5_000) });
    await ingest(svc, NATIVE, key, nativeBody({ issues: [late] }));
    expect(await issueOf(svc, project, late.id)).toMatchObject({
      status: 'resolved',
      occurrence_count: 3,
    });
  });
});

describe('ingestion: usage counters', () => {
  let svc: Svc;
  let tenant: Tenant;
  beforeAll(async () => {
    svc = await startService({ demo: true });
    tenant = await createTenant(svc);
  });
  afterAll(() => svc.close());

  it('accepted items are counted per project, UTC day and stream; accepted ids are not counted again', async () => {
    const log = logItem({ message: 'cart loaded', attributes: { cart_items: 3 } });
    const batch = sdkBody([
      sdkEvent('issue', issueItem()),
      sdkEvent('issue', issueItem()),
      sdkEvent('log', log),
      sdkEvent('trace_span', spanItem()),
      sdkEvent('action', actionItem()),
      sdkEvent('metric', metricItem()),
    ]);
    expect((await ingest(svc, SDK, tenant.ingestKey, batch)).status).toBe(200);
    const usage = await usageOf(svc, tenant.projectId);
    const day = utcDay(svc.clock.now());
    expect(Object.keys(usage).sort()).toEqual(['actions', 'issues', 'logs', 'metrics', 'traces']);
    for (const row of Object.values(usage)) {
      expect(row.day).toBe(day);
      expect(row.bytes).toBeGreaterThan(0);
    }
    expect(usage.issues?.events).toBe(2);
    expect(usage.logs?.events).toBe(1);
    // Log bytes: the message and the attributes as JSON.
    expect(usage.logs?.bytes).toBe(Buffer.byteLength('cart loaded{"cart_items":3}'));
    expect(usage.traces?.events).toBe(1);
    expect(usage.actions?.events).toBe(1);
    expect(usage.metrics?.events).toBe(1);

    // Re-sent: nothing is counted again.
    expect(body<SdkCounts>(await ingest(svc, SDK, tenant.ingestKey, batch)).already_accepted).toBe(
      6,
    );
    expect(await usageOf(svc, tenant.projectId)).toEqual(usage);

    // A mixed batch counts only its new items.
    const mixed = sdkBody([
      sdkEvent('log', log),
      sdkEvent('log', logItem({ message: 'x', attributes: {} })),
    ]);
    await ingest(svc, SDK, tenant.ingestKey, mixed);
    const after = await usageOf(svc, tenant.projectId);
    expect(after.logs?.events).toBe(2);
    expect(after.logs?.bytes).toBe((usage.logs?.bytes ?? 0) + Buffer.byteLength('x{}'));
  });

  it('usage of the next UTC day is a row of its own', async () => {
    svc.clock.advance(24 * 60 * 60 * 1000);
    await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs: [logItem()] }));
    const days = (await storedRows(
      svc,
      "SELECT day FROM usage_counters WHERE project_id = ? AND stream = 'logs' ORDER BY day",
      [tenant.projectId],
    )) as { day: number }[];
    expect(days.map((d) => d.day)).toEqual([
      utcDay(svc.clock.now()) - 24 * 60 * 60 * 1000,
      utcDay(svc.clock.now()),
    ]);
  });
});

describe('ingestion: usage limits', () => {
  let svc: Svc;
  let pro: Tenant;
  const resetAt = '2025-04-01T00:00:00.000Z';
  beforeAll(async () => {
    svc = await startService({
      demo: true,
      config: {
        planQuotas: {
          ...defaultPlanQuotas,
          pro: {
            ...defaultPlanQuotas.pro,
            issue_events: 2,
            trace_spans: 3,
            log_bytes: 200,
            metric_bytes: 60,
          },
        },
      },
    });
    pro = await createTenant(svc, { tier: 'pro' });
  });
  afterAll(() => svc.close());

  function expectUsageLimit(res: ApiResponse, limit: string) {
    expectError(res, 429, 'usage_limit_exceeded', {
      code: 'wait_until_reset_or_upgrade',
      target: 'pricing',
    });
    const b = res.body as Record<string, unknown>;
    expect(b.limit).toBe(limit);
    expect(b.reset_at).toBe(resetAt);
    expect(b.next_action).toEqual({
      code: 'wait_until_reset_or_upgrade',
      target: 'pricing',
      limit,
      reset_at: resetAt,
    });
    expect(b).not.toHaveProperty('retry_after_seconds');
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.headers.get('x-ratelimit-after')).toBeNull();
  }

  it('the account tier is the one whose quota applies', async () => {
    const plan = (await storedRow(svc, 'SELECT plan_tier FROM accounts WHERE id = ?', [
      pro.accountId,
    ])) as { plan_tier: string };
    expect(plan.plan_tier).toBe('pro');
    // An account on the free plan, whose allowance is untouched here.
    const free = await createTenant(svc);
    const res = await ingest(
      svc,
      NATIVE,
      free.ingestKey,
      nativeBody({ issues: [issueItem(), issueItem(), issueItem()] }),
    );
    expect(res.body).toEqual(nativeCounts({ issues: 3 }));
  });

  it('issue_events: up to the quota is accepted; the batch that would pass it is 429 and stores nothing', async () => {
    const two = nativeBody({ issues: [issueItem(), issueItem()] });
    expect((await ingest(svc, NATIVE, pro.ingestKey, two)).body).toEqual(
      nativeCounts({ issues: 2 }),
    );

    const before = await tableCounts(svc, pro.projectId);
    const usage = await usageOf(svc, pro.projectId);
    const third = issueItem();
    const res = await ingest(svc, NATIVE, pro.ingestKey, nativeBody({ issues: [third] }));
    expectUsageLimit(res, 'issue_events');

    // The whole request is refused: the log beside the issue is not stored either.
    const log = logItem();
    const mixed = await ingest(
      svc,
      SDK,
      pro.ingestKey,
      sdkBody([sdkEvent('log', log), sdkEvent('issue', issueItem())]),
    );
    expectUsageLimit(mixed, 'issue_events');
    expect(await tableCounts(svc, pro.projectId)).toEqual(before);
    expect(await usageOf(svc, pro.projectId)).toEqual(usage);
    expect(await idCounts(svc, 'logs', pro.projectId, [log.id])).toEqual([0]);

    // Re-sending accepted issues adds nothing, so it passes and counts nothing.
    const again = await ingest(svc, NATIVE, pro.ingestKey, two);
    expect(again.body).toEqual(nativeCounts({ already_accepted: 2 }));
  });

  it('a batch of another type still passes while issue events are exhausted', async () => {
    const res = await ingest(
      svc,
      NATIVE,
      pro.ingestKey,
      nativeBody({ logs: [logItem()], actions: [actionItem()] }),
    );
    expect(res.body).toEqual(nativeCounts({ logs: 1, actions: 1 }));
  });

  it('trace_spans: a single batch over the quota is 429 and stores nothing', async () => {
    const spans = [spanItem(), spanItem(), spanItem(), spanItem()];
    const res = await ingest(svc, NATIVE, pro.ingestKey, nativeBody({ trace_spans: spans }));
    expectUsageLimit(res, 'trace_spans');
    expect(
      await idCounts(
        svc,
        'spans',
        pro.projectId,
        spans.map((s) => s.id),
      ),
    ).toEqual([0, 0, 0, 0]);
    const three = await ingest(
      svc,
      NATIVE,
      pro.ingestKey,
      nativeBody({ trace_spans: spans.slice(0, 3) }),
    );
    expect(three.body).toEqual(nativeCounts({ trace_spans: 3 }));
  });

  it('log_bytes: measured in bytes, not items', async () => {
    const used = (await usageOf(svc, pro.projectId)).logs?.bytes ?? 0;
    const big = logItem({ message: 'x'.repeat(200 - used), attributes: {} });
    const res = await ingest(svc, NATIVE, pro.ingestKey, nativeBody({ logs: [big] }));
    expectUsageLimit(res, 'log_bytes');
    const fits = logItem({ message: 'x'.repeat(200 - used - 2), attributes: {} });
    expect((await ingest(svc, NATIVE, pro.ingestKey, nativeBody({ logs: [fits] }))).body).toEqual(
      nativeCounts({ logs: 1 }),
    );
    expect((await usageOf(svc, pro.projectId)).logs?.bytes).toBe(200);
  });

  it('metric_bytes', async () => {
    const metrics = [1, 2, 3, 4, 5].map(() =>
      sdkEvent('metric', metricItem({ attributes: { host: 'web-1' } })),
    );
    const res = await ingest(svc, SDK, pro.ingestKey, sdkBody(metrics));
    expectUsageLimit(res, 'metric_bytes');
    expect((await tableCounts(svc, pro.projectId)).metric_samples).toBe(0);
  });

  it('another account of the same tier has its own allowance', async () => {
    const other = await createTenant(svc, { tier: 'pro' });
    const res = await ingest(
      svc,
      NATIVE,
      other.ingestKey,
      nativeBody({ issues: [issueItem(), issueItem()] }),
    );
    expect(res.body).toEqual(nativeCounts({ issues: 2 }));
  });

  it('the allowance is per account: usage of all projects of the owner adds up', async () => {
    const tenant = await createTenant(svc, { tier: 'pro' });
    const second = randomUUID();
    await svc.deps.store.projects.create({
      id: second,
      organizationId: tenant.organizationId,
      slug: `second-${second.slice(0, 8)}`,
      name: 'Second',
      createdAt: svc.clock.now(),
    });
    const secondKey = await addIngestKey(svc, second);
    expect(
      (await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ issues: [issueItem()] }))).status,
    ).toBe(200);
    expect(
      (await ingest(svc, NATIVE, secondKey, nativeBody({ issues: [issueItem()] }))).status,
    ).toBe(200);
    expectUsageLimit(
      await ingest(svc, NATIVE, secondKey, nativeBody({ issues: [issueItem()] })),
      'issue_events',
    );
  });

  it('the allowance resets at reset_at', async () => {
    const tenant = await createTenant(svc, { tier: 'pro' });
    await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ issues: [issueItem(), issueItem()] }));
    expectUsageLimit(
      await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ issues: [issueItem()] })),
      'issue_events',
    );
    svc.clock.set(Date.parse(resetAt));
    const res = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ issues: [issueItem()] }));
    expect(res.body).toEqual(nativeCounts({ issues: 1 }));
  });
});

describe('ingestion: request rate', () => {
  let svc: Svc;
  let tenant: Tenant;
  beforeAll(async () => {
    svc = await startService({ demo: true, config: { ingestRate: { perSecond: 1, burst: 2 } } });
    tenant = await createTenant(svc);
  });
  afterAll(() => svc.close());

  it('the third quick request is 429 rate_limited with retry_after_seconds and both headers', async () => {
    const first = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs: [logItem()] }));
    const second = await ingest(svc, SDK, tenant.ingestKey, sdkBody([sdkEvent('log', logItem())]));
    expect([first.status, second.status]).toEqual([200, 200]);

    const before = await tableCounts(svc, tenant.projectId);
    const log = logItem();
    const res = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs: [log] }));
    expectError(res, 429, 'rate_limited');
    const b = res.body as Record<string, unknown>;
    expect(Number.isInteger(b.retry_after_seconds)).toBe(true);
    expect(b.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(b.retry_after_seconds).toBe(1);
    expect(res.headers.get('retry-after')).toBe(String(b.retry_after_seconds));
    expect(res.headers.get('x-ratelimit-after')).toBe(String(b.retry_after_seconds));
    // Never mixed with the usage limit's fields.
    expect(b).not.toHaveProperty('limit');
    expect(b).not.toHaveProperty('reset_at');
    expect(b.next_action).not.toHaveProperty('limit');
    expect(b.next_action).not.toHaveProperty('reset_at');
    expect(await tableCounts(svc, tenant.projectId)).toEqual(before);
    expect(await idCounts(svc, 'logs', tenant.projectId, [log.id])).toEqual([0]);

    // Other keys have their own budget.
    const demoKey = svc.creds.projects[0]?.ingest_key ?? '';
    expect((await ingest(svc, NATIVE, demoKey, nativeBody({ logs: [logItem()] }))).status).toBe(
      200,
    );

    // After the wait, the request passes.
    svc.clock.advance(1000);
    const later = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs: [log] }));
    expect(later.body).toEqual(nativeCounts({ logs: 1 }));
  });

  it('a refused request takes no token, so repeated refusals do not lengthen the wait', async () => {
    const key = await addIngestKey(svc, tenant.projectId);
    await ingest(svc, NATIVE, key, nativeBody({ logs: [logItem()] }));
    await ingest(svc, NATIVE, key, nativeBody({ logs: [logItem()] }));
    const refusals = [];
    for (let i = 0; i < 3; i++)
      refusals.push(await ingest(svc, NATIVE, key, nativeBody({ logs: [logItem()] })));
    // A refused request takes no token, so the wait stays one second.
    for (const r of refusals)
      expect((r.body as { retry_after_seconds: number }).retry_after_seconds).toBe(1);
  });
});
