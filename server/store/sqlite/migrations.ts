/**
 * Schema migrations, applied in order inside one transaction each. Never edit a shipped
 * migration: add a new one. `user_version` records how many have run.
 */
export const migrations: readonly string[] = [
  /* 1: accounts, organizations, projects and every credential */ `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_before INTEGER
  );
  CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE memberships (
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    account_id TEXT NOT NULL REFERENCES accounts(id),
    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    PRIMARY KEY (organization_id, account_id)
  );
  CREATE INDEX memberships_account ON memberships(account_id);
  CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (organization_id, slug)
  );
  CREATE TABLE team_members (
    team_id TEXT NOT NULL REFERENCES teams(id),
    account_id TEXT NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (team_id, account_id)
  );
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (organization_id, slug)
  );
  CREATE TABLE ingest_keys (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    key_prefix TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    revoked_at INTEGER
  );
  CREATE INDEX ingest_keys_project ON ingest_keys(project_id);
  -- One row per sign-in: refresh tokens and browser sessions of that sign-in share it.
  CREATE TABLE login_families (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    login_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    family_id TEXT NOT NULL REFERENCES login_families(id),
    issued_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    replaced_at INTEGER
  );
  CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
  CREATE TABLE access_tokens (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL CHECK (kind IN ('session', 'personal')),
    family_id TEXT REFERENCES login_families(id),
    login_at INTEGER NOT NULL,
    issued_at INTEGER NOT NULL,
    expires_at INTEGER
  );
  CREATE TABLE browser_sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    family_id TEXT NOT NULL REFERENCES login_families(id),
    login_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE idempotency_keys (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
  );
  `,
  /* 2: telemetry of the five kinds, issue groups, release context and usage counters */ `
  ALTER TABLE accounts ADD COLUMN plan_tier TEXT NOT NULL DEFAULT 'free'
    CHECK (plan_tier IN ('free', 'pro', 'scale'));
  ALTER TABLE accounts ADD COLUMN plan_status TEXT NOT NULL DEFAULT 'free'
    CHECK (plan_status IN ('free', 'trial', 'active', 'past_due', 'disabled'));

  CREATE TABLE logs (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    project_id TEXT NOT NULL REFERENCES projects(id),
    occurred_at INTEGER NOT NULL,
    severity TEXT NOT NULL,
    source TEXT NOT NULL,
    message TEXT NOT NULL,
    attributes TEXT NOT NULL,
    environment TEXT NOT NULL,
    release TEXT NOT NULL,
    service_name TEXT NOT NULL,
    trace_id TEXT,
    span_id TEXT,
    sdk_name TEXT NOT NULL,
    sdk_version TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    UNIQUE (project_id, id)
  );
  CREATE INDEX logs_by_time ON logs(project_id, occurred_at DESC, id DESC);
  CREATE INDEX logs_by_trace ON logs(trace_id) WHERE trace_id IS NOT NULL;

  CREATE TABLE issues (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    fingerprint TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'unresolved' CHECK (status IN ('unresolved', 'resolved', 'archived')),
    occurrence_count INTEGER NOT NULL,
    first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    latest_occurrence_seq INTEGER NOT NULL,
    UNIQUE (project_id, fingerprint)
  );
  CREATE INDEX issues_by_last_seen ON issues(project_id, last_seen_at DESC, id DESC);

  CREATE TABLE issue_occurrences (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    project_id TEXT NOT NULL REFERENCES projects(id),
    issue_id TEXT NOT NULL REFERENCES issues(id),
    occurred_at INTEGER NOT NULL,
    severity TEXT NOT NULL,
    title TEXT NOT NULL,
    message TEXT NOT NULL,
    exception TEXT,
    stack_trace TEXT,
    attributes TEXT NOT NULL,
    environment TEXT NOT NULL,
    release TEXT NOT NULL,
    service_name TEXT NOT NULL,
    trace_id TEXT,
    span_id TEXT,
    breadcrumbs TEXT,
    breadcrumbs_truncated INTEGER NOT NULL,
    sdk_name TEXT NOT NULL,
    sdk_version TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    UNIQUE (project_id, id)
  );
  CREATE INDEX issue_occurrences_by_issue ON issue_occurrences(issue_id, occurred_at DESC, id DESC);

  CREATE TABLE spans (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    project_id TEXT NOT NULL REFERENCES projects(id),
    trace_id TEXT NOT NULL,
    span_id TEXT NOT NULL,
    parent_span_id TEXT,
    name TEXT NOT NULL,
    operation TEXT,
    kind TEXT,
    service_name TEXT NOT NULL,
    environment TEXT NOT NULL,
    release TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    duration_ms REAL NOT NULL,
    status TEXT,
    status_message TEXT,
    attributes TEXT NOT NULL,
    events TEXT NOT NULL,
    sdk_name TEXT NOT NULL,
    sdk_version TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    UNIQUE (project_id, id)
  );
  CREATE INDEX spans_by_trace ON spans(trace_id, project_id, started_at);
  CREATE INDEX spans_by_time ON spans(project_id, started_at DESC);

  CREATE TABLE actions (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    project_id TEXT NOT NULL REFERENCES projects(id),
    occurred_at INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    distinct_id TEXT NOT NULL,
    session_id TEXT,
    properties TEXT NOT NULL,
    environment TEXT NOT NULL,
    release TEXT NOT NULL,
    service_name TEXT NOT NULL,
    trace_id TEXT,
    span_id TEXT,
    sdk_name TEXT NOT NULL,
    sdk_version TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    UNIQUE (project_id, id)
  );
  CREATE INDEX actions_by_time ON actions(project_id, occurred_at DESC, id DESC);

  CREATE TABLE metric_samples (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    project_id TEXT NOT NULL REFERENCES projects(id),
    occurred_at INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    value REAL NOT NULL,
    unit TEXT,
    temporality TEXT,
    attributes TEXT NOT NULL,
    environment TEXT NOT NULL,
    release TEXT NOT NULL,
    service_name TEXT NOT NULL,
    trace_id TEXT,
    span_id TEXT,
    sdk_name TEXT NOT NULL,
    sdk_version TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    UNIQUE (project_id, event_id)
  );
  CREATE INDEX metric_samples_by_time ON metric_samples(project_id, occurred_at DESC, id DESC);

  -- Release/environment/service combinations seen per project (for context_updated).
  CREATE TABLE project_contexts (
    project_id TEXT NOT NULL REFERENCES projects(id),
    release TEXT NOT NULL,
    environment TEXT NOT NULL,
    service_name TEXT NOT NULL,
    first_seen_at INTEGER NOT NULL,
    PRIMARY KEY (project_id, release, environment, service_name)
  ) WITHOUT ROWID;

  -- Accepted items per project, UTC day and stream, by time of receipt.
  CREATE TABLE usage_counters (
    project_id TEXT NOT NULL REFERENCES projects(id),
    day INTEGER NOT NULL,
    stream TEXT NOT NULL CHECK (stream IN ('issues', 'logs', 'traces', 'actions', 'metrics')),
    events INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (project_id, day, stream)
  ) WITHOUT ROWID;
  `,
  /* 3: log triage rules: keyed on each log's match key (project, source, service, template) */ `
  -- NULL for logs stored before this migration; the logs store fills them when it opens.
  ALTER TABLE logs ADD COLUMN triage_key TEXT;
  -- No index on triage_key: reads walk the time index and join the (few) rules by their key,
  -- and another index entry on every insert cost ingest about a fifth of its throughput.
  -- Keeps the backfill's "still missing" lookup cheap; empty once every key is filled.
  CREATE INDEX logs_without_triage_key ON logs(seq) WHERE triage_key IS NULL;
  CREATE TABLE log_triage_rules (
    project_id TEXT NOT NULL REFERENCES projects(id),
    triage_key TEXT NOT NULL,
    -- NULL keeps the captured severity.
    severity_override TEXT CHECK (severity_override IN ('info', 'warning', 'error', 'critical')),
    ignored INTEGER NOT NULL CHECK (ignored IN (0, 1)),
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (project_id, triage_key)
  ) WITHOUT ROWID;
  `,
  /* 4: the log attribute index, its hourly catalog rollups and per-log coverage */ `
  -- Small stable numbers for projects and (path, type) pairs keep the index rows short.
  CREATE TABLE project_numbers (
    n INTEGER PRIMARY KEY,
    project_id TEXT NOT NULL UNIQUE REFERENCES projects(id)
  );
  CREATE TABLE attribute_paths (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('string', 'number', 'boolean')),
    UNIQUE (path, type)
  );
  -- One row per indexed scalar leaf of a log. The key order serves "newest logs having this
  -- path" (and, by exact log, the other filters of a request); log_attributes_by_value serves
  -- equality, newest first. key: folded string, number, or 1/0 (no column affinity, so each
  -- keeps its type); raw: the original string when folding changed it.
  CREATE TABLE log_attributes (
    path_id INTEGER NOT NULL,
    project_n INTEGER NOT NULL,
    occurred_at INTEGER NOT NULL,
    log_seq INTEGER NOT NULL,
    key,
    raw TEXT,
    PRIMARY KEY (path_id, project_n, occurred_at, log_seq)
  ) WITHOUT ROWID;
  CREATE INDEX log_attributes_by_value ON log_attributes(path_id, project_n, key, occurred_at);
  -- The catalog reads these instead of the index: logs having each path, per hour and
  -- captured severity, and the newest of them.
  CREATE TABLE log_attribute_hours (
    project_n INTEGER NOT NULL,
    hour INTEGER NOT NULL,
    severity TEXT NOT NULL,
    path_id INTEGER NOT NULL,
    observed INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    PRIMARY KEY (project_n, hour, severity, path_id)
  ) WITHOUT ROWID;
  -- Coverage: logs per hour and captured severity by how much of them the index holds.
  CREATE TABLE log_index_hours (
    project_n INTEGER NOT NULL,
    hour INTEGER NOT NULL,
    severity TEXT NOT NULL,
    indexed INTEGER NOT NULL,
    partial INTEGER NOT NULL,
    unindexed INTEGER NOT NULL,
    PRIMARY KEY (project_n, hour, severity)
  ) WITHOUT ROWID;
  -- NULL until indexed: logs stored before this migration are indexed when the store opens.
  ALTER TABLE logs ADD COLUMN attributes_indexed INTEGER;
  CREATE INDEX logs_not_attribute_indexed ON logs(seq) WHERE attributes_indexed IS NULL;
  `,
  /* 5: issue triage: priority, assignee, issue severity rules, activity, notification read marks */ `
  -- NULL while the priority is derived from effective severity; set once a person chooses one.
  ALTER TABLE issues ADD COLUMN priority TEXT CHECK (priority IN ('high', 'medium', 'low'));
  -- 0 or 1 assignee: an account or a team. Kept when the account loses access to the project
  -- (reads then show no assignee), so it shows again when access returns.
  ALTER TABLE issues ADD COLUMN assignee_account_id TEXT REFERENCES accounts(id);
  ALTER TABLE issues ADD COLUMN assignee_team_id TEXT REFERENCES teams(id)
    CHECK (assignee_team_id IS NULL OR assignee_account_id IS NULL);
  -- Keyed on the issue's grouping key, so the rule covers every current and future occurrence.
  CREATE TABLE issue_rules (
    project_id TEXT NOT NULL REFERENCES projects(id),
    fingerprint TEXT NOT NULL,
    severity_override TEXT NOT NULL CHECK (severity_override IN ('info', 'warning', 'error', 'critical')),
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (project_id, fingerprint)
  ) WITHOUT ROWID;
  -- Every real change of an issue. actor_id is NULL for changes ingestion made (a regression).
  -- first_seen entries are not stored: they come from the issue's first occurrence.
  CREATE TABLE issue_activity (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    issue_id TEXT NOT NULL REFERENCES issues(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    type TEXT NOT NULL CHECK (type IN ('status', 'priority', 'assigned', 'unassigned', 'severity_rule')),
    value TEXT,
    actor_id TEXT REFERENCES accounts(id),
    assignee_account_id TEXT REFERENCES accounts(id),
    assignee_team_id TEXT REFERENCES teams(id),
    at INTEGER NOT NULL
  );
  CREATE INDEX issue_activity_by_issue ON issue_activity(issue_id, at DESC, id DESC);
  -- Notifications are assignments: found by the assigned account or team, newest first.
  CREATE INDEX issue_activity_assigned_account ON issue_activity(assignee_account_id, at DESC, id DESC)
    WHERE type = 'assigned' AND assignee_account_id IS NOT NULL;
  CREATE INDEX issue_activity_assigned_team ON issue_activity(assignee_team_id, at DESC, id DESC)
    WHERE type = 'assigned' AND assignee_team_id IS NOT NULL;
  CREATE INDEX team_members_account ON team_members(account_id);
  -- Each account's notification read mark; it only moves forward.
  CREATE TABLE issue_notification_marks (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    read_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  /* 6: issue ownership: ownership rules and CODEOWNERS text per project */ `
  -- Both texts as sent (at most 128 KiB each, checked by the route); '' when cleared.
  CREATE TABLE issue_ownership (
    project_id TEXT PRIMARY KEY REFERENCES projects(id),
    rules TEXT NOT NULL,
    codeowners TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL REFERENCES accounts(id)
  ) WITHOUT ROWID;
  `,
  /* 7: stored occurrences per issue and UTC hour, for the board's sparklines */ `
  -- hour: whole hours since the epoch (occurred_at / 3600000). Ingestion adds one for each
  -- occurrence it stores (a duplicate occurrence id is not stored, so it does not count).
  CREATE TABLE issue_occurrence_hours (
    issue_id TEXT NOT NULL,
    hour INTEGER NOT NULL,
    occurrences INTEGER NOT NULL,
    PRIMARY KEY (issue_id, hour)
  ) WITHOUT ROWID;
  INSERT INTO issue_occurrence_hours (issue_id, hour, occurrences)
    SELECT issue_id, CAST(occurred_at / 3600000 AS INTEGER), COUNT(*)
    FROM issue_occurrences
    GROUP BY issue_id, CAST(occurred_at / 3600000 AS INTEGER);
  `,
  /* 8: trace discovery: one row per trace and project, its facets, and span naming counts */ `
  -- One trace's spans within one project. Ingestion keeps it current as spans arrive (in any
  -- order); discovery combines the rows of the projects in scope.
  CREATE TABLE trace_parts (
    project_id TEXT NOT NULL,
    trace_id TEXT NOT NULL,
    started_at INTEGER NOT NULL,  -- earliest span start (epoch ms)
    ended_at REAL NOT NULL,       -- latest span end (epoch ms, fractional)
    span_count INTEGER NOT NULL,
    error_span_count INTEGER NOT NULL,
    -- The best root candidate of this part: a span without parent before one with a parent,
    -- then the earliest start, then the lower span id.
    root_span_id TEXT NOT NULL,
    root_has_parent INTEGER NOT NULL,
    root_started_at INTEGER NOT NULL,
    root_name TEXT NOT NULL,
    root_service_name TEXT NOT NULL,
    root_operation TEXT,
    -- Spans in each naming category (server/domain/trace-naming.ts).
    generic_name_spans INTEGER NOT NULL,
    unmatched_route_spans INTEGER NOT NULL,
    generic_operation_spans INTEGER NOT NULL,
    PRIMARY KEY (project_id, trace_id)
  ) WITHOUT ROWID;
  CREATE INDEX trace_parts_by_time ON trace_parts(project_id, started_at DESC, trace_id DESC);
  CREATE INDEX trace_parts_by_trace ON trace_parts(trace_id);
  -- Services, releases and environments seen in a trace part (for filters and the row).
  CREATE TABLE trace_facets (
    project_id TEXT NOT NULL,
    trace_id TEXT NOT NULL,
    facet TEXT NOT NULL CHECK (facet IN ('service', 'release', 'environment')),
    value TEXT NOT NULL,
    PRIMARY KEY (project_id, trace_id, facet, value)
  ) WITHOUT ROWID;
  CREATE INDEX trace_facets_by_value ON trace_facets(facet, value, project_id, trace_id);
  -- NULL until the span is counted in trace_parts (spans stored before this migration).
  ALTER TABLE spans ADD COLUMN rolled_up INTEGER;
  CREATE INDEX spans_not_rolled_up ON spans(seq) WHERE rolled_up IS NULL;
  -- The issues that carry a trace, for the trace summary (an exact trace_id join).
  CREATE INDEX issue_occurrences_by_trace ON issue_occurrences(trace_id, occurred_at DESC)
    WHERE trace_id IS NOT NULL;
  `,
  /* 9: release rows, per-minute and per-hour volume, metric series by name, deployments */ `
  -- One row per project, release, environment and service: counts and first/last seen of the
  -- telemetry stored in it (event times: occurred_at, a span's started_at). Ingestion keeps it
  -- current (server/store/sqlite/release-rollup.ts); this migration rolls up what is stored.
  CREATE TABLE release_rows (
    project_id TEXT NOT NULL,
    release TEXT NOT NULL,
    environment TEXT NOT NULL,
    service_name TEXT NOT NULL,
    issue_count INTEGER NOT NULL,
    log_count INTEGER NOT NULL,
    trace_span_count INTEGER NOT NULL,
    action_count INTEGER NOT NULL,
    metric_count INTEGER NOT NULL,
    trace_count INTEGER NOT NULL,
    error_trace_count INTEGER NOT NULL,
    first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    PRIMARY KEY (project_id, release, environment, service_name)
  ) WITHOUT ROWID;
  CREATE INDEX release_rows_by_time ON release_rows(project_id, last_seen_at DESC);
  -- The issue groups with an occurrence in a row (issue_count counts them).
  CREATE TABLE release_row_issues (
    project_id TEXT NOT NULL,
    release TEXT NOT NULL,
    environment TEXT NOT NULL,
    service_name TEXT NOT NULL,
    issue_id TEXT NOT NULL,
    PRIMARY KEY (project_id, release, environment, service_name, issue_id)
  ) WITHOUT ROWID;
  -- The traces with a span in a row; has_error once one of those spans failed (a later span
  -- of the trace may turn it into an error trace).
  CREATE TABLE release_row_traces (
    project_id TEXT NOT NULL,
    release TEXT NOT NULL,
    environment TEXT NOT NULL,
    service_name TEXT NOT NULL,
    trace_id TEXT NOT NULL,
    has_error INTEGER NOT NULL,
    PRIMARY KEY (project_id, release, environment, service_name, trace_id)
  ) WITHOUT ROWID;
  INSERT INTO release_row_issues
    SELECT DISTINCT project_id, release, environment, service_name, issue_id FROM issue_occurrences;
  INSERT INTO release_row_traces
    SELECT project_id, release, environment, service_name, trace_id, MAX(status IS 'error')
    FROM spans GROUP BY project_id, release, environment, service_name, trace_id;
  INSERT INTO release_rows
    SELECT project_id, release, environment, service_name,
      SUM(issues), SUM(logs), SUM(spans), SUM(actions), SUM(metrics), SUM(traces), SUM(error_traces),
      MIN(first_at), MAX(last_at)
    FROM (
      SELECT project_id, release, environment, service_name, 0 AS issues, 0 AS logs, 0 AS spans,
        0 AS actions, 0 AS metrics, 0 AS traces, 0 AS error_traces,
        MIN(occurred_at) AS first_at, MAX(occurred_at) AS last_at
        FROM issue_occurrences GROUP BY project_id, release, environment, service_name
      UNION ALL
      SELECT project_id, release, environment, service_name, COUNT(*), 0, 0, 0, 0, 0, 0, NULL, NULL
        FROM release_row_issues GROUP BY project_id, release, environment, service_name
      UNION ALL
      SELECT project_id, release, environment, service_name, 0, COUNT(*), 0, 0, 0, 0, 0,
        MIN(occurred_at), MAX(occurred_at)
        FROM logs GROUP BY project_id, release, environment, service_name
      UNION ALL
      SELECT project_id, release, environment, service_name, 0, 0, COUNT(*), 0, 0, 0, 0,
        MIN(started_at), MAX(started_at)
        FROM spans GROUP BY project_id, release, environment, service_name
      UNION ALL
      SELECT project_id, release, environment, service_name, 0, 0, 0, COUNT(*), 0, 0, 0,
        MIN(occurred_at), MAX(occurred_at)
        FROM actions GROUP BY project_id, release, environment, service_name
      UNION ALL
      SELECT project_id, release, environment, service_name, 0, 0, 0, 0, COUNT(*), 0, 0,
        MIN(occurred_at), MAX(occurred_at)
        FROM metric_samples GROUP BY project_id, release, environment, service_name
      UNION ALL
      SELECT project_id, release, environment, service_name, 0, 0, 0, 0, 0, COUNT(*), SUM(has_error), NULL, NULL
        FROM release_row_traces GROUP BY project_id, release, environment, service_name
    )
    -- The count-only parts carry NULL times, which MIN and MAX skip.
    GROUP BY project_id, release, environment, service_name;

  -- Stored events and bytes (as usage counts them) per project, stream, event-time bucket and
  -- release/environment/service: minutes for intervals under an hour, hours for the others.
  -- minute = occurred_at / 60000, hour = occurred_at / 3600000 (a span's started_at).
  CREATE TABLE volume_minutes (
    project_id TEXT NOT NULL,
    stream TEXT NOT NULL CHECK (stream IN ('issues', 'logs', 'traces', 'actions', 'metrics')),
    minute INTEGER NOT NULL,
    service_name TEXT NOT NULL,
    release TEXT NOT NULL,
    environment TEXT NOT NULL,
    events INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (project_id, stream, minute, service_name, release, environment)
  ) WITHOUT ROWID;
  CREATE TABLE volume_hours (
    project_id TEXT NOT NULL,
    stream TEXT NOT NULL CHECK (stream IN ('issues', 'logs', 'traces', 'actions', 'metrics')),
    hour INTEGER NOT NULL,
    service_name TEXT NOT NULL,
    release TEXT NOT NULL,
    environment TEXT NOT NULL,
    events INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (project_id, stream, hour, service_name, release, environment)
  ) WITHOUT ROWID;
  -- Bytes of stored rows by the usage formulas (server/store/sqlite/telemetry.ts), in SQL.
  INSERT INTO volume_minutes
    SELECT project_id, stream, at / 60000, service_name, release, environment, COUNT(*), SUM(bytes)
    FROM (
      SELECT project_id, 'issues' AS stream, occurred_at AS at, service_name, release, environment,
        length(CAST(json_array(title, message, stack_trace, json(attributes), json(breadcrumbs)) AS BLOB)) AS bytes
        FROM issue_occurrences
      UNION ALL SELECT project_id, 'logs', occurred_at, service_name, release, environment, bytes FROM logs
      UNION ALL SELECT project_id, 'traces', started_at, service_name, release, environment,
        length(CAST(json_array(name, json(attributes), json(events)) AS BLOB)) FROM spans
      UNION ALL SELECT project_id, 'actions', occurred_at, service_name, release, environment,
        length(CAST(json_array(name, json(properties)) AS BLOB)) FROM actions
      UNION ALL SELECT project_id, 'metrics', occurred_at, service_name, release, environment, bytes
        FROM metric_samples
    )
    GROUP BY project_id, stream, at / 60000, service_name, release, environment;
  INSERT INTO volume_hours
    SELECT project_id, stream, minute / 60, service_name, release, environment, SUM(events), SUM(bytes)
    FROM volume_minutes GROUP BY project_id, stream, minute / 60, service_name, release, environment;

  -- Metric series read one metric of one project over a range.
  CREATE INDEX metric_samples_by_name ON metric_samples(project_id, name, occurred_at);

  -- Deployments as recorded by their callers; the id is chosen by the caller, per project.
  CREATE TABLE deployments (
    project_id TEXT NOT NULL REFERENCES projects(id),
    deployment_id TEXT NOT NULL,
    release TEXT NOT NULL,
    environment TEXT NOT NULL,
    service_name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
    started_at INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    commit_sha TEXT,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (project_id, deployment_id)
  ) WITHOUT ROWID;
  CREATE INDEX deployments_by_finish ON deployments(project_id, finished_at DESC, deployment_id DESC);
  `,
  /* 10: metric series read from a covering index */ `
  -- The series aggregates value per bucket (grouped by service, release or environment): with
  -- those columns in the index it never visits the table (twice as fast at 67,000 samples
  -- in range, bench/release-series.ts). Same leading columns, so it replaces the old index.
  CREATE INDEX metric_samples_series
    ON metric_samples(project_id, name, occurred_at, value, service_name, release, environment);
  DROP INDEX metric_samples_by_name;
  `,
  /* 11: product analytics read the step events of a funnel by name */ `
  -- A funnel reads only its step names in one project and range: one range scan per name
  -- along this index instead of every action in range.
  CREATE INDEX actions_by_name ON actions(project_id, name, occurred_at);
  `,
  /* 12: subscriptions (billing interval, state, period) and events dropped by SDKs */ `
  -- plan_tier stays the tier; plan_status stays the usage view of the state (written together).
  ALTER TABLE accounts ADD COLUMN billing_interval TEXT NOT NULL DEFAULT 'none'
    CHECK (billing_interval IN ('none', 'monthly', 'yearly'));
  ALTER TABLE accounts ADD COLUMN subscription_state TEXT NOT NULL DEFAULT 'free'
    CHECK (subscription_state IN ('free', 'trialing', 'active', 'past_due', 'paused', 'canceled'));
  ALTER TABLE accounts ADD COLUMN subscription_period_start INTEGER;
  ALTER TABLE accounts ADD COLUMN subscription_period_end INTEGER;
  -- Paid accounts from before: monthly, in the calendar month (UTC) of the migration.
  UPDATE accounts SET
    billing_interval = 'monthly',
    subscription_state = CASE plan_status
      WHEN 'trial' THEN 'trialing' WHEN 'past_due' THEN 'past_due'
      WHEN 'disabled' THEN 'canceled' ELSE 'active' END,
    subscription_period_start = CAST(strftime('%s', 'now', 'start of month') AS INTEGER) * 1000,
    subscription_period_end = CAST(strftime('%s', 'now', 'start of month', '+1 month') AS INTEGER) * 1000
  WHERE plan_tier <> 'free';
  UPDATE accounts SET plan_status = 'free' WHERE plan_tier = 'free';

  -- Events SDKs report as dropped before delivery, per project, UTC day of receipt and reason.
  -- Never billed: kept apart from usage_counters.
  CREATE TABLE sdk_dropped_counters (
    project_id TEXT NOT NULL REFERENCES projects(id),
    day INTEGER NOT NULL,
    reason TEXT NOT NULL,
    events INTEGER NOT NULL,
    PRIMARY KEY (project_id, day, reason)
  ) WITHOUT ROWID;
  `,
  /* 13: support tickets and their attached context (stored for the operator; no e-mail) */ `
  CREATE TABLE support_tickets (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    project_id TEXT REFERENCES projects(id),
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    severity TEXT NOT NULL CHECK (severity IN ('low', 'normal', 'high', 'urgent')),
    status TEXT NOT NULL CHECK (status IN ('open')),
    created_at INTEGER NOT NULL
  );
  CREATE INDEX support_tickets_by_time ON support_tickets(created_at DESC);
  -- A bundle is kept as the JSON text the console sent (bounded by the route), never parsed again.
  CREATE TABLE support_ticket_contexts (
    id TEXT PRIMARY KEY,
    ticket_id TEXT NOT NULL REFERENCES support_tickets(id),
    kind TEXT NOT NULL CHECK (kind IN ('investigation', 'reference')),
    bundle TEXT,
    path TEXT,
    bytes INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX support_ticket_contexts_by_ticket ON support_ticket_contexts(ticket_id);
  `,
  /* 14: product analytics read each unit's actions from an index in unit order */ `
  -- Funnels, paths, retention, lifecycle, segments and the overview count per session or per
  -- user. Read in unit order from a covering index, GROUP BY unit streams without sorting the
  -- range (a sort of 1M rows cost about 1.5 s of CPU); every column an analytics read filters
  -- or counts is in the index, so the table is never visited. About 120 MB each per 1M actions.
  CREATE INDEX actions_by_session ON actions(project_id, session_id, occurred_at, seq, kind, name,
    environment, service_name, release);
  CREATE INDEX actions_by_user ON actions(project_id, distinct_id, occurred_at, seq, kind, name,
    environment, service_name, release, session_id);
  `,
  /* 15: failed sign-in attempts per account and client address (sign-in throttling) */ `
  -- key: 'password:account:<sha256 of the e-mail>', 'password:address:<ip>' or
  -- 'token:address:<ip>'; failed_at: the last failure (epoch ms); blocked_until: 0 or epoch ms.
  CREATE TABLE auth_throttle (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    blocked_until INTEGER NOT NULL,
    failed_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX auth_throttle_by_failure ON auth_throttle(failed_at);
  `,
  /* 16: the journal of ingest batches written to ClickHouse and not yet committed here */ `
  -- With telemetry in ClickHouse, a batch is entered here before its rows are written there and
  -- removed in the transaction that counts it; an entry left after a crash names rows nobody
  -- acknowledged, which the service removes when it starts (store/journaled-ingest.ts).
  CREATE TABLE ingest_journal (
    batch_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    started_at INTEGER NOT NULL
  );
  `,
  /* 17: tool connections, the delegated read-only credential, and their uses per day */ `
  -- project_ids: a JSON array of the project ids the connection covers (1 to 50).
  CREATE TABLE tool_connections (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    token_prefix TEXT NOT NULL,
    project_ids TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    revoked_at INTEGER,
    last_used_at INTEGER
  );
  CREATE INDEX tool_connections_by_account ON tool_connections(account_id, created_at);
  -- day: UTC days since 1970-01-01; uses are added a minute's worth at a time.
  CREATE TABLE tool_connection_days (
    connection_id TEXT NOT NULL REFERENCES tool_connections(id),
    day INTEGER NOT NULL,
    uses INTEGER NOT NULL,
    PRIMARY KEY (connection_id, day)
  ) WITHOUT ROWID;
  `,
  /* 18: the ingest journal keeps committed batches a while: the ledger a restore checks */ `
  -- A committed batch's entry stays (committed_at set) for an hour instead of going: a backup's
  -- telemetry copy is newer than its state copy, and on restore every ClickHouse batch received
  -- since ingest_ledger.complete_since and not committed here is removed (store/backup/).
  ALTER TABLE ingest_journal ADD COLUMN committed_at INTEGER;
  CREATE INDEX ingest_journal_begun ON ingest_journal(started_at, batch_id)
    WHERE committed_at IS NULL;
  CREATE INDEX ingest_journal_by_start ON ingest_journal(started_at);
  -- complete_since (epoch ms): every batch begun since then and committed has its entry here
  -- (older committed entries are pruned, and this moves up). sweep_pending: set by restore,
  -- cleared by the start-up check once it removed the batches this store never committed.
  CREATE TABLE ingest_ledger (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    complete_since INTEGER NOT NULL,
    sweep_pending INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO ingest_ledger (id, complete_since)
    VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
  `,
  /* 19: which kinds of telemetry have moved from these tables to ClickHouse */ `
  -- One row per SQLite telemetry table whose rows live in ClickHouse (LOOKOUT_TELEMETRY=clickhouse):
  -- moved_through is the last seq copied there (the move resumes after it); done_at is set once
  -- every row is there and the table here is emptied (issue occurrences keep each group's first
  -- and latest). A ClickHouse store refuses to start on a table with rows and no done_at.
  CREATE TABLE telemetry_moves (
    table_name TEXT PRIMARY KEY,
    moved_through INTEGER NOT NULL DEFAULT 0,
    moved INTEGER NOT NULL DEFAULT 0,
    done_at INTEGER
  ) WITHOUT ROWID;
  `,
  /* 20: alerts: rules, incidents, inbox notifications, webhooks, deliveries, issue snoozes */ `
  -- condition, notify: the JSON the routes validated. evaluated_through: end of the last
  -- evaluated window (catch-up resumes after it); lease_*: the instance evaluating it now.
  CREATE TABLE alert_rules (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    organization_id TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    condition TEXT NOT NULL,
    notify TEXT NOT NULL,
    resolve_threshold REAL,
    enabled INTEGER NOT NULL,
    muted_until INTEGER,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    evaluated_through INTEGER,
    lease_holder TEXT,
    lease_until INTEGER
  );
  CREATE INDEX alert_rules_by_project ON alert_rules(project_id, created_at, id);
  CREATE INDEX alert_rules_due ON alert_rules(enabled, evaluated_through);
  -- rule_name and kind are kept so the history outlives the rule.
  CREATE TABLE alert_incidents (
    id TEXT PRIMARY KEY,
    rule_id TEXT NOT NULL,
    rule_name TEXT NOT NULL,
    project_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    resolved_at INTEGER,
    value REAL NOT NULL,
    threshold REAL NOT NULL,
    op TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    window_end INTEGER NOT NULL,
    view_url TEXT NOT NULL
  );
  CREATE INDEX alert_incidents_by_project ON alert_incidents(project_id, started_at, id);
  CREATE INDEX alert_incidents_by_rule ON alert_incidents(rule_id, state);
  -- One row per recipient (a team is expanded to its members when the alert fires).
  CREATE TABLE alert_notifications (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    incident_id TEXT NOT NULL,
    rule_id TEXT NOT NULL,
    rule_name TEXT NOT NULL,
    project_id TEXT NOT NULL,
    event TEXT NOT NULL,
    at INTEGER NOT NULL,
    value REAL NOT NULL,
    threshold REAL NOT NULL,
    view_url TEXT NOT NULL
  );
  CREATE INDEX alert_notifications_by_account ON alert_notifications(account_id, at, id);
  CREATE TABLE alert_notification_reads (
    account_id TEXT PRIMARY KEY,
    read_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  -- secret: kept as it is (the HMAC needs it); the routes show it only on creation.
  CREATE TABLE alert_webhooks (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX alert_webhooks_by_organization ON alert_webhooks(organization_id, created_at);
  -- payload: the body every attempt sends. claimed_until: an instance is sending it.
  CREATE TABLE alert_deliveries (
    id TEXT PRIMARY KEY,
    webhook_id TEXT NOT NULL,
    incident_id TEXT,
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    state TEXT NOT NULL,
    next_attempt_at INTEGER,
    claimed_until INTEGER
  );
  CREATE INDEX alert_deliveries_by_webhook ON alert_deliveries(webhook_id, created_at, id);
  CREATE INDEX alert_deliveries_due ON alert_deliveries(state, next_attempt_at);
  CREATE TABLE alert_delivery_attempts (
    delivery_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    at INTEGER NOT NULL,
    status INTEGER,
    response_ms INTEGER,
    error TEXT,
    PRIMARY KEY (delivery_id, n)
  ) WITHOUT ROWID;
  CREATE TABLE issue_snoozes (
    issue_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    until INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  /* 21: an alert rule's last evaluation failure (cleared by its next recorded window) */ `
  ALTER TABLE alert_rules ADD COLUMN last_error TEXT;
  ALTER TABLE alert_rules ADD COLUMN last_error_next TEXT;
  ALTER TABLE alert_rules ADD COLUMN last_error_at INTEGER;
  `,
];
