/** Raised when the database was migrated by a newer outcome-tracker than this one. */
export class SchemaTooNew extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `The database schema is at version ${found}, newer than this outcome-tracker knows (${known}). ` +
        'Upgrade outcome-tracker to open it.',
    );
    this.name = 'SchemaTooNew';
  }
}
