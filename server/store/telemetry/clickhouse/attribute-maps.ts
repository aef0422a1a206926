import { indexAttributes, type IndexCoverage } from '../../../domain/attribute-index';

/** A log's indexed attribute leaves as the `logs` table's typed maps (clickhouse-schema.ts). */
export type AttributeMaps = {
  attr_string: Record<string, string>;
  attr_string_cased: Record<string, string>;
  attr_number: Record<string, number>;
  attr_bool: Record<string, number>;
  attr_coverage: IndexCoverage;
};

/**
 * The leaves the attribute index keeps (the same rules as the other stores: depth, count and
 * size limits, no arrays), by JSON Pointer path and type. A string's case-folded value is what
 * filters compare by default; its original is kept apart only when folding changed it.
 */
export function attributeMaps(attributes: Record<string, unknown>): AttributeMaps {
  const maps: AttributeMaps = {
    attr_string: {},
    attr_string_cased: {},
    attr_number: {},
    attr_bool: {},
    attr_coverage: 'indexed',
  };
  const indexed = indexAttributes(attributes);
  maps.attr_coverage = indexed.coverage;
  for (const leaf of indexed.leaves) {
    switch (leaf.type) {
      case 'string':
        maps.attr_string[leaf.path] = String(leaf.key);
        if (leaf.raw !== null) maps.attr_string_cased[leaf.path] = leaf.raw;
        break;
      case 'number':
        maps.attr_number[leaf.path] = Number(leaf.key);
        break;
      case 'boolean':
        maps.attr_bool[leaf.path] = Number(leaf.key);
        break;
    }
  }
  return maps;
}
