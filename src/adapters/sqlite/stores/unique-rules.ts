import { UniqueViolation } from '../../../core/port/index.js';

const uniqueCodes = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/**
 * Runs a write and translates a uniqueness failure into the port's UniqueViolation. `rules`
 * maps SQLite's constraint description ("issues.workspace_id, issues.project_id, issues.number")
 * to the violation's name; other failures pass through unchanged.
 */
export function withUniqueRules<T>(rules: Readonly<Record<string, string>>, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && uniqueCodes.has(code) && error instanceof Error) {
      const constraint = error.message.replace(/^UNIQUE constraint failed: /, '');
      const what = rules[constraint];
      if (what) throw new UniqueViolation(what);
    }
    throw error;
  }
}
