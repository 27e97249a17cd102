import { describe, expect, it } from 'vitest';
import { withoutWorkspace } from '../../src/adapters/postgres/collections.js';
import { storedJsonOf } from '../../src/adapters/shared/stored-json.js';

describe('a PostgreSQL row read by id', () => {
  const row = {
    id: 'iss_1',
    workspaceId: 'ws_1',
    title: 'A "quoted" title, with "workspaceId":"ws_2" in it \u2028',
    labels: ['a'],
    version: 3,
  };

  it('is its stored text with the workspace cut out, as parsing and serializing it would make it', () => {
    const data = JSON.stringify(row);
    expect(withoutWorkspace(data, 'iss_1', 'ws_1')).toBe(storedJsonOf(row).json);
  });

  it('is not cut from a text that does not begin with its id and workspace', () => {
    const { id, workspaceId, ...rest } = row;
    expect(withoutWorkspace(JSON.stringify({ workspaceId, id, ...rest }), 'iss_1', 'ws_1')).toBeUndefined();
    expect(withoutWorkspace(JSON.stringify(row), 'iss_1', 'ws_2')).toBeUndefined();
    expect(withoutWorkspace(JSON.stringify(row), 'iss_2', 'ws_1')).toBeUndefined();
  });
});
