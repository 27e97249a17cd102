import { type RelationGraph, relationRefusal, storedGraph } from '../families/relations/operations.js';
import type { StoredRelationType } from '../model.js';
import type { OperationContext } from '../pipeline/context.js';
import type { ItemProblem } from './family.js';

interface FileRelation {
  id: string;
  sourceId: string;
  targetId: string;
}

/**
 * The issue relations of a file, as its check takes them in: the file's relations are not stored
 * while it is checked, so the API's relation rules read the workspace's graph with them added.
 */
export class FileRelations {
  /** Source issue → its `blocks` relations in the file. */
  private readonly blocking = new Map<string, FileRelation[]>();
  /** `type source target` → the file's relation of that type between those issues. */
  private readonly all = new Map<string, FileRelation>();
  /** Child issue → its `parent_of` relation in the file. */
  private readonly parents = new Map<string, FileRelation>();

  /**
   * What the API would refuse in the relation (itself, a relation already there, a cycle, a second
   * parent), none when it can go in; a relation that can is taken into the graph.
   */
  async refusal(ctx: OperationContext, record: Record<string, unknown>): Promise<ItemProblem[]> {
    const relation = {
      id: String(record.id),
      sourceId: String(record.sourceId),
      targetId: String(record.targetId),
    };
    const type = record.type as StoredRelationType;
    const refused = await relationRefusal(
      ctx,
      this.graph(ctx, relation.id),
      type,
      relation.sourceId,
      relation.targetId,
    );
    if (refused) return [{ field: 'record.targetId', message: refused.detail }];
    this.add(type, relation);
    return [];
  }

  private add(type: StoredRelationType, relation: FileRelation): void {
    this.all.set(`${type} ${relation.sourceId} ${relation.targetId}`, relation);
    if (type === 'parent_of') this.parents.set(relation.targetId, relation);
    if (type !== 'blocks') return;
    const list = this.blocking.get(relation.sourceId) ?? [];
    if (!list.some((r) => r.id === relation.id)) list.push(relation);
    this.blocking.set(relation.sourceId, list);
  }

  /**
   * The workspace's graph with the file's relations, leaving out the relation being checked: a
   * check run again (a transaction retried) must not find the relation it is checking.
   */
  private graph(ctx: OperationContext, checking: string): RelationGraph {
    const stored = storedGraph(ctx);
    const parent = (issueId: string) => {
      const relation = this.parents.get(issueId);
      return relation && relation.id !== checking ? relation : undefined;
    };
    const inFile = (type: StoredRelationType, sourceId: string, targetId: string) => {
      const relation = this.all.get(`${type} ${sourceId} ${targetId}`);
      return relation && relation.id !== checking ? relation.id : null;
    };
    return {
      existing: async (type, sourceId, targetId) =>
        inFile(type, sourceId, targetId) ??
        (type === 'relates_to' ? inFile(type, targetId, sourceId) : null) ??
        (await stored.existing(type, sourceId, targetId)),
      blocks: async (issueId) => [
        ...(await stored.blocks(issueId)),
        ...(this.blocking.get(issueId) ?? []).filter((r) => r.id !== checking).map((r) => r.targetId),
      ],
      parentOf: async (issueId) => parent(issueId)?.sourceId ?? (await stored.parentOf(issueId)),
      parentRelationOf: async (issueId) => parent(issueId)?.id ?? (await stored.parentRelationOf(issueId)),
    };
  }
}
