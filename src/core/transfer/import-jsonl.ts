import type { OperationContext } from '../pipeline/context.js';
import { derivedId } from './derived-ids.js';
import { type TransferFamily, transferFamilies, transferFamily } from './families.js';
import { FileRelations } from './file-relations.js';
import { exportFormatName, exportFormatVersion } from './format.js';
import type { ImportItem, ImportProblem, ImportSource } from './import-run.js';

/** A line of a file and its number, from 1. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** Each problem once, as `file:line: record.path: message`. */
function recordProblems(
  file: string,
  line: number,
  found: readonly { path: readonly PropertyKey[]; message: string }[],
): ImportProblem[] {
  const problems = new Map<string, ImportProblem>();
  for (const { path, message } of found) {
    const field = ['record', ...path.map(String)].join('.');
    problems.set(`${field}\n${message}`, { file, line, field, message });
  }
  return [...problems.values()];
}

/**
 * Reads this project's own export (docs/export.md) as import items: every record keeps its id,
 * key, number and timestamps; a member is matched to an existing user by email, and the records
 * naming the exported user's id then name that user. A record whose id the workspace holds
 * already was imported before and is skipped.
 */
export function jsonlSource(file: string, lines: () => AsyncIterable<NumberedLine>): ImportSource {
  // Exported user id → the id of the user that has the member's email here (the same both passes).
  const userIds = new Map<string, string>();
  const localUser = (id: string) => userIds.get(id) ?? id;

  return async function* read() {
    const relations = new FileRelations();
    let header = false;
    let ended = false;
    let last = 0;
    const counts: Record<string, number> = {};
    for await (const { line, text } of lines()) {
      last = line;
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        yield { file, line, field: null, message: `not JSON: ${(error as Error).message}` };
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        yield { file, line, field: null, message: 'expected a JSON object' };
        continue;
      }
      const object = value as Record<string, unknown>;
      if (!header) {
        header = true;
        if (object.format !== exportFormatName) {
          yield {
            file,
            line,
            field: 'format',
            message: `expected the header of an export ("format": "${exportFormatName}")`,
          };
          return;
        }
        if (
          typeof object.version !== 'number' ||
          object.version > exportFormatVersion ||
          object.version < 1
        ) {
          yield {
            file,
            line,
            field: 'version',
            message: `this version reads format version ${exportFormatVersion} and older, not ${JSON.stringify(object.version)}`,
          };
          return;
        }
        continue;
      }
      if (ended) {
        yield { file, line, field: null, message: 'a line after the trailer ("end": true)' };
        continue;
      }
      if (object.end === true) {
        ended = true;
        const declared = (object.counts ?? {}) as Record<string, unknown>;
        for (const family of new Set([...Object.keys(declared), ...Object.keys(counts)])) {
          if ((declared[family] ?? 0) !== (counts[family] ?? 0)) {
            yield {
              file,
              line,
              field: `counts.${family}`,
              message: `says ${String(declared[family] ?? 0)} records, the file has ${counts[family] ?? 0}`,
            };
          }
        }
        continue;
      }
      const family = typeof object.family === 'string' ? transferFamily(object.family) : undefined;
      if (!family) {
        const names = transferFamilies.map((f) => f.family).join(', ');
        yield {
          file,
          line,
          field: 'family',
          message: `unknown family ${JSON.stringify(object.family)}: expected one of ${names}`,
        };
        continue;
      }
      counts[family.family] = (counts[family.family] ?? 0) + 1;
      const parsed = family.schema.safeParse(object.record);
      // What the API's create refuses is asked too when the record has the shape of one.
      const refused =
        typeof object.record === 'object' && object.record !== null && !Array.isArray(object.record)
          ? (family.refused?.(object.record as Record<string, unknown>) ?? [])
          : [];
      const problems = recordProblems(file, line, [...(parsed.error?.issues ?? []), ...refused]);
      if (!parsed.success || problems.length > 0) {
        yield* problems;
        continue;
      }
      yield family.family === 'members'
        ? memberItem(family, parsed.data, line, userIds)
        : // The record as the file has it (the schema checked it and changes nothing), so its fields
          // keep their order: it is stored, announced and exported again byte for byte.
          recordItem(
            family,
            object.record as Record<string, unknown>,
            line,
            localUser,
            family.family === 'issueRelations' ? relations : null,
          );
    }
    if (!header)
      yield {
        file,
        line: Math.max(1, last),
        field: null,
        message: 'the file is empty: expected the header of an export',
      };
    else if (!ended)
      yield {
        file,
        line: last + 1,
        field: null,
        message: 'the file ends without its trailer ("end": true): it was cut short',
      };
  };
}

/** A record of a collection: its references to members name the users found by email. */
function recordItem(
  family: TransferFamily,
  record: Record<string, unknown>,
  line: number,
  localUser: (id: string) => string,
  relations: FileRelations | null,
): ImportItem {
  const references = family.references
    .filter((ref) => typeof record[ref.field] === 'string')
    .map((ref) => ({ ...ref, id: String(record[ref.field]) }));
  const local = () => {
    const copy = { ...record };
    for (const ref of family.references) {
      if (ref.family === 'members' && typeof copy[ref.field] === 'string')
        copy[ref.field] = localUser(String(copy[ref.field]));
    }
    return copy;
  };
  return {
    line,
    family: family.family,
    id: String(record.id),
    references,
    exists: (ctx) => family.exists(ctx, record),
    async check(ctx) {
      const problems = (await family.conflicts?.(ctx, local())) ?? [];
      // The API's relation rules, over the workspace's relations and the file's before this one.
      if (problems.length === 0 && relations) problems.push(...(await relations.refusal(ctx, record)));
      return problems;
    },
    create: (ctx) => family.create(ctx, local()),
  };
}

/** A member: the user with its email, or a new one under the exported id (when that id is free). */
function memberItem(
  family: TransferFamily,
  record: Record<string, unknown>,
  line: number,
  userIds: Map<string, string>,
): ImportItem {
  const exportedId = String(record.userId);
  const email = String(record.email);
  const prepare = async (ctx: OperationContext) => {
    const user = await ctx.tx.tenancy.getUserByEmail(email);
    if (user) return void userIds.set(exportedId, user.id);
    const holder = await ctx.tx.tenancy.getUser(exportedId);
    // Another person has that id here: the member comes in under an id of its own.
    if (holder)
      userIds.set(
        exportedId,
        derivedId('usr', String(record.createdAt), ctx.tenant.workspaceId, 'member', email),
      );
  };
  return {
    line,
    family: family.family,
    id: exportedId,
    references: [],
    prepare,
    exists: (ctx) => family.exists(ctx, record),
    create: (ctx) => family.create(ctx, { ...record, userId: userIds.get(exportedId) ?? exportedId }),
  };
}
