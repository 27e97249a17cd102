import { randomUUID } from 'node:crypto';
import {
  exportWorkspace,
  jsonlSource,
  type NumberedLine,
  runImport,
  type Storage,
} from '../../src/core/index.js';
import type { World } from '../properties/support.js';

/** The workspace exported into an array of lines. */
export async function exportLines(storage: Storage, slug: string): Promise<string[]> {
  const lines: string[] = [];
  await exportWorkspace(storage, slug, (line) => {
    lines.push(line);
  });
  return lines;
}

/** The records of an export (header and trailer left out), parsed. */
export const recordsOf = (lines: readonly string[]): unknown[] =>
  lines.slice(1, -1).map((line) => JSON.parse(line));

export const numbered = (lines: readonly string[]) =>
  async function* (): AsyncIterable<NumberedLine> {
    let n = 0;
    for (const text of lines) yield { line: ++n, text };
  };

/** Imports export lines into the workspace `slug` of `storage`. */
export const importLines = (
  storage: Storage,
  slug: string,
  lines: readonly string[],
  options: { dryRun?: boolean; quietEvents?: boolean; batchSize?: number; maxProblems?: number } = {},
) =>
  runImport(storage, jsonlSource('export.jsonl', numbered(lines)), {
    workspace: slug,
    file: 'export.jsonl',
    ...options,
  });

/** An account and a workspace with nothing in them: no user, no member, no token. */
export async function bareWorkspace(storage: Storage, slug: string): Promise<void> {
  const createdAt = '2026-11-20T00:00:00.000Z';
  await storage.transaction(async (tx) => {
    await tx.tenancy.insertAccount({ id: `acct_bare${slug}`, name: 'Bare', createdAt });
    await tx.tenancy.insertWorkspace({
      id: `ws_bare${slug}`,
      accountId: `acct_bare${slug}`,
      slug,
      name: slug,
      createdAt,
    });
  });
}

/** One step of building a random workspace through the API. */
export type Step =
  | { kind: 'member'; n: number }
  | { kind: 'project'; n: number }
  | { kind: 'outcome'; pick: number; owner: number | null }
  | { kind: 'issue'; pick: number; assignee: number | null; labels: string[] }
  | { kind: 'transition'; pick: number; to: 'in_progress' | 'blocked' | 'resolved' | 'closed' }
  | { kind: 'patch'; pick: number; title: string }
  | { kind: 'decision'; pick: number; status: 'proposed' | 'accepted' }
  | { kind: 'context'; pick: number }
  | { kind: 'time'; pick: number; minutes: number; onIssue: boolean; day: number }
  | { kind: 'comment'; on: 'issue' | 'outcome' | 'decision'; pick: number }
  | { kind: 'relation'; from: number; to: number; type: 'blocks' | 'relates_to' | 'duplicates' | 'child_of' }
  | { kind: 'tick'; ms: number };

const at = <T>(list: readonly T[], i: number): T | undefined =>
  list.length === 0 ? undefined : list[i % list.length];

/** Builds a workspace through the API from the steps; steps whose target does not exist yet do nothing. */
export async function buildWorkspace(world: World, steps: readonly Step[]): Promise<void> {
  const members: string[] = [world.ws.adminUserId];
  const projects: string[] = [world.ws.projectId];
  const outcomes: { id: string; projectId: string }[] = [];
  const issues: { id: string; projectId: string; outcomeId: string | null }[] = [];
  const decisions: string[] = [];
  const create = async (path: string, body: unknown) => {
    const res = await world.call('POST', path, { body, headers: { 'idempotency-key': randomUUID() } });
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${res.text}`);
    return res.json;
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'tick':
        world.clock.advance(step.ms);
        break;
      case 'member':
        members.push(
          (await create('/members', { email: `m${members.length}-${step.n}@import.test`, role: 'member' }))
            .id,
        );
        break;
      case 'project':
        projects.push((await create('/projects', { name: `Project ${projects.length} ${step.n}` })).id);
        break;
      case 'outcome': {
        const projectId = at(projects, step.pick) as string;
        const ownerId = step.owner === null ? null : at(members, step.owner);
        outcomes.push({
          id: (await create('/outcomes', { projectId, title: `Outcome ${outcomes.length}`, ownerId })).id,
          projectId,
        });
        break;
      }
      case 'issue': {
        const projectId = at(projects, step.pick) as string;
        const outcome = outcomes.find((o) => o.projectId === projectId) ?? null;
        const assigneeId = step.assignee === null ? null : at(members, step.assignee);
        const body = {
          projectId,
          title: `Issue ${issues.length}`,
          labels: step.labels,
          assigneeId,
          outcomeId: outcome?.id ?? null,
          // Issues labelled ui were imported from another tracker: where they came from travels too.
          ...(step.labels.includes('ui')
            ? {
                external: {
                  source: 'jira',
                  id: `UI-${issues.length + 1}`,
                  url: `https://acme.atlassian.net/browse/UI-${issues.length + 1}`,
                },
              }
            : {}),
        };
        issues.push({ id: (await create('/issues', body)).id, projectId, outcomeId: outcome?.id ?? null });
        break;
      }
      case 'transition': {
        const issue = at(issues, step.pick);
        if (issue) await world.call('POST', `/issues/${issue.id}/transition`, { body: { to: step.to } });
        break;
      }
      case 'patch': {
        const issue = at(issues, step.pick);
        if (!issue) break;
        const read = await world.call('GET', `/issues/${issue.id}`);
        await world.call('PATCH', `/issues/${issue.id}`, {
          body: { title: step.title },
          headers: { 'if-match': read.headers.etag ?? '' },
        });
        break;
      }
      case 'decision': {
        const projectId = at(projects, step.pick) as string;
        const decision = await create('/decisions', {
          projectId,
          title: 'Decide',
          rationale: 'Because',
          status: step.status,
          participants: ['Ann'],
        });
        decisions.push(decision.id);
        break;
      }
      case 'comment': {
        const on = {
          issue: issues.map((i) => i.id),
          outcome: outcomes.map((o) => o.id),
          decision: decisions,
        }[step.on];
        const id = at(on, step.pick);
        if (id) await create('/comments', { [`${step.on}Id`]: id, body: `On ${step.on} ${step.pick}` });
        break;
      }
      case 'relation': {
        const from = at(issues, step.from);
        const to = at(issues, step.to);
        // Refused relations (to itself, twice, a cycle, a second parent) leave nothing to export.
        if (from && to)
          await world.call('POST', `/issues/${from.id}/relations`, {
            body: { type: step.type, issueId: to.id },
            headers: { 'idempotency-key': randomUUID() },
          });
        break;
      }
      case 'context': {
        const outcome = at(outcomes, step.pick);
        if (outcome)
          await create('/context', { outcomeId: outcome.id, kind: 'note', title: 'Note', body: 'Text' });
        break;
      }
      case 'time': {
        const outcome = at(outcomes, step.pick);
        if (!outcome) break;
        const issue = step.onIssue ? issues.find((i) => i.outcomeId === outcome.id) : undefined;
        const date = `2026-11-${String(1 + (step.day % 28)).padStart(2, '0')}`;
        await create('/time-entries', {
          outcomeId: outcome.id,
          minutes: step.minutes,
          date,
          issueId: issue?.id ?? null,
        });
        break;
      }
    }
  }
}
