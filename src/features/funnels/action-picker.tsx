import { TelemetryText } from '../../ui/telemetry-text';
import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { useId, useState } from 'react';
import {
  ACTION_KIND_LABELS,
  analyticsQueries,
  type OverviewParams,
} from '../../api/queries/analytics';
import styles from '../../ui/command-picker.module.css';
import { ErrorState } from '../../ui/error-state';
import { SearchIcon } from '../../ui/icons';
import { actionChoices } from './action-choices';
import form from './funnel-definition-form.module.css';
import { MAX_NAME_LENGTH, type FunnelStepSearch } from './funnels-search';

/**
 * Picks the action of a funnel step: the actions seen in the project and range (with their
 * kind and how often they happened), most frequent first, narrowed as you type. Enter takes
 * the first choice, so seen actions always come first (the best match on top); a typed name
 * that no seen action has comes last, saying it matches nothing seen in the range.
 */
export function ActionPicker({
  params,
  onPick,
}: {
  params: OverviewParams;
  onPick: (step: FunnelStepSearch) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const query = useQuery(analyticsQueries.overview(params));
  const actions = query.data?.top_actions ?? [];
  const typed = text.trim();
  const tooLong = typed.length > MAX_NAME_LENGTH;
  // The order is ours (cmdk's own filter ranks free-text entries above seen actions).
  const { matches, unseenKinds } = actionChoices(actions, tooLong ? '' : typed);
  const shown = tooLong ? [] : matches;

  return (
    <Command label="Action of the new step" className={styles.command} shouldFilter={false} loop>
      <div className={styles.inputRow}>
        <SearchIcon className={styles.searchIcon} />
        <Command.Input
          value={text}
          onValueChange={setText}
          placeholder="Search actions or type an exact name"
          className={styles.input}
          aria-invalid={tooLong || undefined}
          aria-describedby={`${id}-help`}
          autoFocus
        />
      </div>
      <p id={`${id}-help`} className={tooLong ? styles.problem : styles.help}>
        {tooLong
          ? `Action names are compared up to ${MAX_NAME_LENGTH} characters; this one has ${typed.length}.`
          : query.data
            ? `${query.data.truncated_actions ? `The ${actions.length} most frequent` : `All ${actions.length}`} actions seen in this project and range, most frequent first. Names must match exactly.`
            : 'Actions seen in this project and range, most frequent first.'}
      </p>
      {query.isError ? (
        <div className={styles.error}>
          <ErrorState error={query.error} reset={() => void query.refetch()} compact />
        </div>
      ) : (
        <Command.List className={styles.list}>
          {query.isPending && <Command.Loading>Reading the actions in range…</Command.Loading>}
          {!query.isPending && (
            <Command.Empty className={styles.empty}>
              {actions.length === 0
                ? 'No actions were seen in this project and range. Type an exact action name.'
                : 'No action seen in range matches. Type the exact name to use it anyway.'}
            </Command.Empty>
          )}
          {shown.map((a) => (
            <Command.Item
              key={`${a.kind}:${a.name}`}
              value={`seen:${a.kind}:${a.name}`}
              onSelect={() => onPick({ kind: a.kind, name: a.name })}
              className={styles.item}
              title={`${a.events.toLocaleString('en-US')} actions by ${a.users.toLocaleString('en-US')} users in range`}
            >
              <span className={styles.label}>
                {a.name.trim() === '' ? '(blank name)' : <TelemetryText text={a.name} />}
              </span>
              <span className={styles.type} data-type={a.kind}>
                {ACTION_KIND_LABELS[a.kind]}
              </span>
              <span className={styles.count}>{a.events.toLocaleString('en-US')}</span>
            </Command.Item>
          ))}
          {!query.isPending &&
            unseenKinds.map((kind) => (
              <Command.Item
                key={`typed:${kind}`}
                value={`typed:${kind}`}
                onSelect={() => onPick({ kind, name: typed })}
                className={styles.item}
              >
                <span className={form.typedChoice}>
                  <span className={styles.label}>
                    Use &ldquo;{typed}&rdquo; as {kind === 'interaction' ? 'an' : 'a'}{' '}
                    {ACTION_KIND_LABELS[kind].toLowerCase()}
                  </span>
                  <span className={form.unseen}>Matches nothing seen in this range</span>
                </span>
              </Command.Item>
            ))}
        </Command.List>
      )}
    </Command>
  );
}
