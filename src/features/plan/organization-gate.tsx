import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { Account, SubscriptionReadiness } from '../../api/queries/account';
import type { Organization } from '../../api/queries/organizations';
import { Button, buttonClass } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { PlusIcon } from '../../ui/icons';
import { ReportSection } from '../../ui/report-section';
import {
  ingestKeyGateSentence,
  organizationPlanSummary,
  projectGateSentence,
} from '../../widgets/plan-standing/organization-gate-text';
import { CreateOrganizationDialog } from './create-organization-dialog';
import { PlanChangeDialog } from './plan-change-dialog';
import styles from './plan-page.module.css';
import { blockerActionLabel, blockerSentence, ownedText } from './plan-text';

/**
 * Whether the account can create an organization. Enabled only when the service says
 * `organization_creation_allowed` (a paid plan can still be blocked); otherwise the blocker in
 * words and its typed action as its own button.
 */
export function OrganizationGate({
  readiness,
  account,
}: {
  readiness: SubscriptionReadiness;
  account: Account;
}) {
  const reasonId = useId();
  const [creating, setCreating] = useState(false);
  const [changing, setChanging] = useState(false);
  const [created, setCreated] = useState<Organization | null>(null);
  const allowed = readiness.organization_creation_allowed;
  const blocker = readiness.organization_creation_blocker;
  const actionCode = readiness.next_action.code;
  const actionLabel = allowed ? null : blockerActionLabel(actionCode);
  // The same memberships the service counts toward `limits.organizations`.
  const owned = account.organizations.filter((o) => o.role === 'owner').length;

  return (
    <ReportSection
      title="Organizations"
      note="Each organization follows its owner's plan. A new organization is owned by this account and counts toward this plan's organization limit."
    >
      <div className={styles.gate}>
        <p className={styles.muted}>{ownedText(owned, readiness.limits.organizations)}</p>
        {account.organizations.length === 0 ? (
          <p className={styles.muted}>This account belongs to no organization.</p>
        ) : (
          <ul className={styles.organizations} aria-label="Organizations of this account">
            {account.organizations.map((o) => {
              const gate = projectGateSentence(o) ?? ingestKeyGateSentence(o);
              return (
                <li key={o.id} className={styles.organization}>
                  <span className={styles.organizationName}>{o.name}</span>
                  <span className={styles.role}>{o.role}</span>
                  {o.plan && (
                    <span className={styles.organizationPlan}>
                      · {organizationPlanSummary(o.plan)}
                    </span>
                  )}
                  {gate !== null && <span className={styles.organizationGate}>{gate}</span>}
                </li>
              );
            })}
          </ul>
        )}

        {created && (
          <Callout tone="success" role="status">
            <span>
              Organization <strong>{created.name}</strong> created; this account owns it.{' '}
              <Link to="/projects">Open projects</Link>
            </span>
          </Callout>
        )}

        {allowed ? (
          <p id={reasonId} className={styles.next}>
            This account can create an organization.
          </p>
        ) : (
          blocker !== null && (
            <Callout tone="warning" title="Creating an organization is not available">
              <p id={reasonId}>{blockerSentence(blocker, readiness)}</p>
              <code className={styles.raw}>{blocker}</code>
            </Callout>
          )
        )}

        <p className={styles.next}>
          <span className={styles.nextLabel}>From the service: </span>
          {readiness.next}
        </p>

        <div className={styles.gateActions}>
          <Button
            variant="primary"
            disabled={!allowed}
            aria-describedby={reasonId}
            onClick={() => setCreating(true)}
          >
            <PlusIcon />
            Create organization
          </Button>
          {actionLabel !== null &&
            (actionCode === 'manage_organization_limit' ? (
              // The organizations of the account are listed with its projects.
              <Link to="/projects" className={buttonClass('secondary')}>
                {actionLabel}
              </Link>
            ) : (
              <Button onClick={() => setChanging(true)}>{actionLabel}</Button>
            ))}
        </div>
      </div>

      <CreateOrganizationDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(organization) => {
          setCreating(false);
          setCreated(organization);
        }}
      />
      {actionLabel !== null && (
        <PlanChangeDialog
          open={changing}
          onOpenChange={setChanging}
          title={actionLabel}
          readiness={readiness}
          email={account.email}
        />
      )}
    </ReportSection>
  );
}
