import { z } from 'zod';
import { calendarDate } from './dates.js';

/**
 * The due-day filters of issue and outcome lists, named as the time filters are: `dueAfter` is
 * inclusive (due on that day or later) and `dueBefore` exclusive (due before that day), as
 * `createdAfter` and `createdBefore`; a row with no due day matches neither.
 */
export const dueFilters = {
  dueAfter: calendarDate.optional().describe('Due on this day (`YYYY-MM-DD`) or later'),
  dueBefore: calendarDate.optional().describe('Due before this day (`YYYY-MM-DD`)'),
};

/** The estimate filters of the issues list, both inclusive; an issue with no estimate matches neither. */
export const estimateFilters = {
  estimateMin: z.coerce.number().min(0).optional().describe('An estimate of at least this'),
  estimateMax: z.coerce.number().min(0).optional().describe('An estimate of at most this'),
};

/** The day before a `YYYY-MM-DD` day (UTC calendar arithmetic). */
export function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** The day after a `YYYY-MM-DD` day. */
export function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The storage range of the due-day filters (inclusive both ends), or undefined for none. */
export function dueRange(query: {
  dueAfter?: string | undefined;
  dueBefore?: string | undefined;
}): { gte?: string; lte?: string } | undefined {
  if (query.dueAfter === undefined && query.dueBefore === undefined) return undefined;
  return {
    ...(query.dueAfter !== undefined ? { gte: query.dueAfter } : {}),
    ...(query.dueBefore !== undefined ? { lte: dayBefore(query.dueBefore) } : {}),
  };
}

/** The storage range of the estimate filters, or undefined for none. */
export function estimateRange(query: {
  estimateMin?: number | undefined;
  estimateMax?: number | undefined;
}): { gte?: number; lte?: number } | undefined {
  if (query.estimateMin === undefined && query.estimateMax === undefined) return undefined;
  return {
    ...(query.estimateMin !== undefined ? { gte: query.estimateMin } : {}),
    ...(query.estimateMax !== undefined ? { lte: query.estimateMax } : {}),
  };
}
