import type { Storage } from '../port/index.js';
import { type Clock, isoTime, systemClock } from '../runtime.js';
import { workspaceBySlug } from '../tenancy/operations.js';
import { transferFamilies } from './families.js';
import { type ExportHeader, type ExportTrailer, exportFormatName, exportFormatVersion } from './format.js';

export interface ExportProgress {
  family: string;
  /** Records of this family written so far. */
  written: number;
  /** Whether the family is finished. */
  done: boolean;
}

export interface ExportOptions {
  /** Rows read per page (default 500): memory holds one page, whatever the workspace's size. */
  pageSize?: number;
  /** Called after every page and when each family is finished. */
  onProgress?: (progress: ExportProgress) => void;
  clock?: Clock;
}

export interface ExportResult {
  counts: Record<string, number>;
}

/**
 * Writes the workspace as JSON Lines (docs/export.md): a header, one line per record of every
 * family in `transferFamilies`, and a trailer with the counts. Never a token hash, a password or
 * a webhook secret: no family carries one.
 *
 * Reads in one read transaction (a consistent snapshot where the adapter gives one), page by
 * page through each family's table, and hands each line to `write` as it goes: memory holds a
 * page, not the workspace. `write` may return a promise (a stream's back-pressure): the next
 * line waits for it.
 */
export async function exportWorkspace(
  storage: Storage,
  slug: string,
  write: (line: string) => void | Promise<void>,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const pageSize = options.pageSize ?? 500;
  const onProgress = options.onProgress ?? (() => {});
  const clock = options.clock ?? systemClock;
  let started = false;
  return storage.transaction(
    async (tx) => {
      // An adapter may run a transaction again (port/storage.ts); lines already written cannot be taken back.
      if (started) throw new Error('the export was interrupted by a conflicting transaction: run it again');
      started = true;
      const workspace = await workspaceBySlug(tx, slug);
      const header: ExportHeader = {
        format: exportFormatName,
        version: exportFormatVersion,
        workspace: { slug: workspace.slug, name: workspace.name },
        exportedAt: isoTime(clock.now()),
      };
      await write(JSON.stringify(header));
      const counts: Record<string, number> = {};
      const scope = { tx, workspaceId: workspace.id };
      for (const family of transferFamilies) {
        let written = 0;
        let after: string | null = null;
        do {
          const page: { rows: unknown[]; next: string | null } = await tx.dump.page(
            family.table,
            after,
            pageSize,
          );
          for (const row of page.rows) {
            const record = await family.toRecord(row, scope);
            if (record === null) continue;
            await write(JSON.stringify({ family: family.family, record }));
            written++;
          }
          after = page.next;
          onProgress({ family: family.family, written, done: after === null });
        } while (after !== null);
        counts[family.family] = written;
      }
      const trailer: ExportTrailer = { end: true, counts };
      await write(JSON.stringify(trailer));
      return { counts };
    },
    { mode: 'read' },
  );
}
