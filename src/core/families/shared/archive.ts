import type { Issue, Outcome } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import { saveNextVersion } from './operations.js';

type Archivable = { issues: Issue; outcomes: Outcome };

/**
 * Archives a row read for writing (`archive`) or brings it back (`!archive`) as its next version,
 * and announces it (`<noun>.archived` / `<noun>.unarchived`). A row already so is answered as it
 * is, with no new version and no event: archiving twice is archiving once.
 */
export async function setArchived<Name extends keyof Archivable, View>(
  ctx: OperationContext,
  name: Name,
  row: Archivable[Name],
  archive: boolean,
  event: { noun: 'issue' | 'outcome'; present: (row: Archivable[Name]) => View },
): Promise<View> {
  if ((row.archivedAt !== null) === archive) return event.present(row);
  const next = (await saveNextVersion(
    ctx,
    name,
    row as never,
    {
      archivedAt: archive ? ctx.now : null,
    } as never,
  )) as Archivable[Name];
  const view = event.present(next);
  await ctx.emit({
    type: `${event.noun}.${archive ? 'archived' : 'unarchived'}`,
    resource: { type: event.noun, id: next.id },
    data: { object: view },
  });
  return view;
}
