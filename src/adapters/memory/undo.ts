/** The undo log of a memory transaction: each write records how to take itself back. */
export type Undo = () => void;
export type RecordUndo = (undo: Undo) => void;

/** Sets map[key] = value, recording how to put back what was there. */
export function setWithUndo<K, V>(map: Map<K, V>, key: K, value: V, record: RecordUndo): void {
  const had = map.has(key);
  const before = map.get(key);
  record(() => (had ? map.set(key, before as V) : map.delete(key)));
  map.set(key, value);
}

export function deleteWithUndo<K, V>(map: Map<K, V>, key: K, record: RecordUndo): boolean {
  if (!map.has(key)) return false;
  const before = map.get(key) as V;
  record(() => map.set(key, before));
  map.delete(key);
  return true;
}

/** Rows are cloned on the way in and out, so callers never share objects with the store. */
export const clone = <T>(value: T): T => structuredClone(value);
