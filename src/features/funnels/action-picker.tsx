import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { useId, useState } from 'react';
import {
  ACTION_KIND_LABELS,
  ACTION_KINDS,
  analyticsQueries,
  type OverviewParams,
} from '../../api/queries/analytics';
import styles from '../../ui/command-picker.module.css';
import { ErrorState } from '../../ui/error-state';
import { SearchIcon } from '../../ui/icons';
import { MAX_NAME_LENGTH, type FunnelStepSearch } from './funnels-search';

/**
 * Picks the action of a funnel step: the actions seen in the project and range (with their
 * kind and how often they happened), most frequent first, filtered as you type; a name that
 * is not among them can still be used, as any of the three kinds.
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
  const offerTyped = typed !== '' && !tooLong;

  return (
    <Command label="Action of the new step" className={styles.command} loop>
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
          {!query.isPending && !offerTyped && (
            <Command.Empty className={styles.empty}>
              {actions.length === 0
                ? 'No actions were seen in this project and range. Type an exact action name.'
                : 'No action seen in range matches. Type the exact name to use it anyway.'}
            </Command.Empty>
          )}
          {actions.map((a) => (
            <Command.Item
              key={`${a.kind}:${a.name}`}
              value={`${a.kind}:${a.name}`}
              keywords={[a.name]}
              onSelect={() => onPick({ kind: a.kind, name: a.name })}
              className={styles.item}
              title={`${a.events.toLocaleString('en-US')} actions by ${a.users.toLocaleString('en-US')} users in range`}
            >
              <span className={styles.label}>{a.name.trim() === '' ? '(blank name)' : a.name}</span>
              <span className={styles.type} data-type={a.kind}>
                {ACTION_KIND_LABELS[a.kind]}
              </span>
              <span className={styles.count}>{a.events.toLocaleString('en-US')}</span>
            </Command.Item>
          ))}
          {offerTyped &&
            ACTION_KINDS.filter(
              (kind) => !actions.some((a) => a.kind === kind && a.name === typed),
            ).map((kind) => (
              <Command.Item
                key={`typed:${kind}`}
                // A value without the typed text ranks below the seen actions that match it.
                value={`__typed:${kind}`}
                forceMount
                onSelect={() => onPick({ kind, name: typed })}
                className={styles.item}
              >
                <span className={styles.label}>
                  Use &ldquo;{typed}&rdquo; as {kind === 'interaction' ? 'an' : 'a'}{' '}
                  {ACTION_KIND_LABELS[kind].toLowerCase()}
                </span>
              </Command.Item>
            ))}
        </Command.List>
      )}
    </Command>
  );
}
