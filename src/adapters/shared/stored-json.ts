import type { StoredJson } from '../../core/port/index.js';

/**
 * `Collection.getJson` for adapters that hold the row parsed (memory) or cannot cut the stored
 * text (PostgreSQL): the row without its workspace, serialized.
 */
export function storedJsonOf(row: { workspaceId: string; version: number }): StoredJson {
  const { workspaceId: _hidden, ...shown } = row;
  return { json: JSON.stringify(shown), version: row.version };
}
