import type { z } from 'zod';
import { pageOf } from './schema.js';

/**
 * A family's standard schemas, said once in its `schema.ts` (`standardSchemas`): its standard routes validate and
 * answer with them (`standardRoutes`), and its family publishes them as OpenAPI components
 * (`standardComponents`), so the two cannot name different schemas.
 */
export interface StandardSchemas<
  LQ extends z.ZodType = z.ZodType,
  CB extends z.ZodType = z.ZodType,
  PB extends z.ZodType = z.ZodType,
> {
  /** The record's component name (`Comment`); the others add `Page`, `Create` and `Patch` to it. */
  component: string;
  /** The record as the API answers it. */
  item: z.ZodType<Record<string, unknown>>;
  /** One page of records, as a list answers it. */
  page: z.ZodType;
  listQuery: LQ;
  create: CB;
  /** The update body, for a family whose records change after creation. */
  patch?: PB;
}

/**
 * The bundle of a family's standard schemas, its list's page made of its record unless the family
 * gives its own (time entries add their sum): its routes and components then share one page schema.
 */
export function standardSchemas<LQ extends z.ZodType, CB extends z.ZodType, PB extends z.ZodType>(
  declared: Omit<StandardSchemas<LQ, CB, PB>, 'page'> & { page?: z.ZodType },
): StandardSchemas<LQ, CB, PB> {
  return { ...declared, page: declared.page ?? pageOf(declared.item) };
}

/** The components a family publishes in the OpenAPI document (`Family.schemas`). */
export interface Components {
  responses: Record<string, z.ZodType>;
  requests: Record<string, z.ZodType>;
}

/**
 * The OpenAPI components of a family's standard schemas, its own after them (a family's extra
 * answers, such as `OutcomeSummary`): the document keeps the order they are given in.
 */
export function standardComponents(schemas: StandardSchemas, own: Partial<Components> = {}): Components {
  const { component, patch } = schemas;
  return {
    responses: {
      [component]: schemas.item,
      [`${component}Page`]: schemas.page,
      ...own.responses,
    },
    requests: {
      [`${component}Create`]: schemas.create,
      ...(patch ? { [`${component}Patch`]: patch } : {}),
      ...own.requests,
    },
  };
}
