import { describe, expect, it } from 'vitest';
import {
  collectionDefinitions,
  collectionNames,
  collectionTables,
} from '../../src/core/families/collections.js';
import { dumpTables } from '../../src/core/families/dump-tables.js';
import { eventTypes } from '../../src/core/families/events.js';
import type { Family } from '../../src/core/families/family.js';
import { families } from '../../src/core/families/index.js';
import { routes } from '../../src/core/routes.js';
import { transferFamilies } from '../../src/core/transfer/families.js';
import { webhookTestEvent } from '../../src/core/webhooks/events.js';

const list: readonly Family[] = families;

describe('the family list', () => {
  it('is where the event catalogue comes from: every family event, and the webhook test', () => {
    const declared = list.flatMap((family) => Object.values(family.events ?? {}));
    expect([...eventTypes]).toEqual([...declared, webhookTestEvent]);
  });

  it('gives every event family the object its events carry', () => {
    const prefixes = new Set(
      list.flatMap((family) => (family.eventObject ? [family.eventObject.prefix] : [])),
    );
    for (const type of eventTypes) {
      if (type !== webhookTestEvent) expect(prefixes).toContain(type.slice(0, type.indexOf('.')));
    }
  });

  it('makes the route table, family by family', () => {
    expect(routes).toEqual(list.flatMap((family) => family.routes));
  });

  it('names each collection once, with its table, and copies each once', () => {
    const stored = list.flatMap((family) => (family.collection ? [family.collection.name] : []));
    expect(collectionNames).toEqual(stored);
    expect(Object.keys(collectionDefinitions).sort()).toEqual([...stored].sort());
    expect(Object.keys(collectionTables).sort()).toEqual([...stored].sort());
    expect(new Set(dumpTables).size).toBe(dumpTables.length);
    for (const name of stored) expect(dumpTables).toContain(name);
  });

  it('exports every record after the records it names', () => {
    const written = transferFamilies.map((family) => family.family);
    for (const [at, family] of transferFamilies.entries()) {
      for (const reference of family.references) {
        expect(written.indexOf(reference.family), `${family.family}.${reference.field}`).toBeLessThan(at);
      }
    }
  });
});
