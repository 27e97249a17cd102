import { z } from 'zod';

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30). */
export const calendarDate = z.iso.date();
