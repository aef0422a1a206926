import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { alertQueries, type PreviewInput } from '../../api/queries/alerts';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useStableValue } from '../../lib/use-stable-value';

/** How long the form must rest before the preview is read again. */
export const PREVIEW_DEBOUNCE_MS = 600;

/**
 * The preview of the draft once typing pauses: the last chart stays on screen while the next
 * one is read (so the chart does not blink at every key), and `stale` says it is being redrawn.
 */
export function useRulePreview(input: PreviewInput | null) {
  const stable = useStableValue(input);
  const settled = useDebouncedValue(stable, PREVIEW_DEBOUNCE_MS);
  const query = useQuery({
    ...alertQueries.preview(settled ?? { project_id: '', kind: 'log', condition: {} }),
    enabled: settled !== null,
    placeholderData: keepPreviousData,
  });
  const typing = stable !== settled;
  return { query, stale: typing || query.isPlaceholderData };
}
