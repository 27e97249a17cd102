import pg from 'pg';

/** The OID of int8[] (the admission times of the rate limit). */
const int8Array = 1016;

type GetTypeParser = typeof pg.types.getTypeParser;
type Oid = Parameters<GetTypeParser>[0];

/**
 * How the adapter parses what PostgreSQL sends. Integers sent as int8 (sequences, counters,
 * times, COUNT results cast to bigint) fit a double: parsed as numbers; the rest as node-postgres
 * does by default. The storage's own pool is made with these; every query whose result the
 * adapter reads also carries them itself (`typed`), so that a pool an embedder made, with
 * whatever parsers, answers the adapter alike.
 */
export const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    if (oid === int8Array) {
      const parseArray = pg.types.getTypeParser(oid as Oid, 'text') as (value: string) => string[];
      return (value: string) => parseArray(value).map(Number);
    }
    return pg.types.getTypeParser(oid as Oid, format);
  }) as GetTypeParser,
};

/**
 * A query's config with the adapter's parsers: node-postgres uses a query's own `types` over its
 * client's (pg/lib/client.js), so the result reads the same on any pool.
 */
export const typed = <C extends pg.QueryConfig>(config: C): C & { types: typeof types } => ({
  ...config,
  types,
});
