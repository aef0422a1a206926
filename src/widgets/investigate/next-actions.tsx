import { Link } from '@tanstack/react-router';
import type { InvestigationHint } from '../../api/queries/investigations';
import { buttonClass } from '../../ui/button';
import styles from './evidence.module.css';
import { hintLink } from './hint-link';

/** The service's hints, as links to the console pages that show the same thing. */
export function NextActions({ hints }: { hints: InvestigationHint[] }) {
  const seen = new Set<string>();
  const links = hints.flatMap((hint) => {
    const link = hintLink(hint);
    if (link === null) return [];
    const id = 'issueId' in link.params ? link.params.issueId : link.params.traceId;
    // Several hints may lead to one page (an issue's bundle and its occurrences).
    if (seen.has(id)) return [];
    seen.add(id);
    return [{ hint, link, id }];
  });
  // Several pages of one kind are told apart by their short id.
  const same = (label: string) => links.filter((l) => l.link.label === label).length > 1;
  if (links.length === 0) return null;
  return (
    <section className={styles.section} aria-label="Next steps">
      <h3 className={styles.sectionTitle}>Next steps</h3>
      <ul className={styles.hints}>
        {links.map(({ hint, link, id }) => (
          <li key={hint.path}>
            {link.to === '/issues/$issueId' ? (
              <Link to={link.to} params={link.params} className={buttonClass('secondary', 'sm')}>
                {link.label}
                {same(link.label) && <code> {id.slice(0, 8)}</code>}
              </Link>
            ) : (
              <Link to={link.to} params={link.params} className={buttonClass('secondary', 'sm')}>
                {link.label}
                {same(link.label) && <code> {id.slice(0, 8)}</code>}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
