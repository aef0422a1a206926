import { valueText } from '../../lib/attribute-values';
import { lookupPointer } from '../../lib/json-pointer';

export {
  attributeTree,
  filterForValue,
  valueText,
  type AttributeNode,
} from '../../lib/attribute-values';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `11-22 14:05:09.123` (UTC): a list's time column, dense and sortable by eye. */
export function formatLogTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/** What an attribute column shows for a log: the value at the path, or null when absent. */
export function attributeCell(attributes: unknown, path: string): string | null {
  const found = lookupPointer(attributes, path);
  return found.found ? valueText(found.value) : null;
}
