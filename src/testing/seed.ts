import type { IssueView } from '../core/families/issues/api.js';
import type { OutcomeView } from '../core/families/outcomes/api.js';
import type { ProjectView } from '../core/families/projects/api.js';
import {
  type IssueSeverity,
  type IssueStatus,
  issues,
  type OperationContext,
  type OutcomeStatus,
  outcomes,
  projects,
  type Role,
  tenancy,
} from '../core/index.js';
import { seededRandom } from './ids.js';

/** What `seed` makes: counts of each kind, spread evenly over the projects. */
export interface SeedOptions {
  /** The seed number the data comes from; default the test tracker's `seed`. */
  seed?: number;
  /** Projects to make; default 1 (at least 1 when outcomes or issues are asked for). */
  projects?: number;
  /** Outcomes, spread over the projects. */
  outcomes?: number;
  /** Issues, spread over the projects; about half belong to an outcome of their project, when it has one. */
  issues?: number;
  /** Members (role `member`) to add to the workspace; issues are assigned to them or to no one. */
  members?: number;
}

/** A member `seed` added. */
export interface SeededMember {
  userId: string;
  email: string;
  role: Role;
}

/** What `seed` made, in the order it made them, each as the API would answer it. */
export interface Seeded {
  projects: ProjectView[];
  outcomes: OutcomeView[];
  issues: IssueView[];
  members: SeededMember[];
}

const projectNames = [
  'Apollo',
  'Borealis',
  'Cassini',
  'Dawn',
  'Europa',
  'Fermi',
  'Gemini',
  'Hubble',
  'Juno',
  'Kepler',
  'Lunar',
  'Mercury',
  'Nova',
  'Orion',
  'Pioneer',
  'Quasar',
  'Rosetta',
  'Skylab',
  'Titan',
  'Voyager',
];
const verbs = [
  'Fix',
  'Add',
  'Remove',
  'Speed up',
  'Document',
  'Refactor',
  'Test',
  'Polish',
  'Review',
  'Migrate',
];
const things = [
  'the login form',
  'search results',
  'the billing export',
  'webhook retries',
  'the onboarding email',
  'CSV import',
  'the settings page',
  'rate limiting',
  'the audit log',
  'dark mode',
  'the mobile menu',
  'password reset',
  'the API docs',
  'notifications',
  'the dashboard chart',
  'file uploads',
];
const goals = ['Launch', 'Halve the time of', 'Make self-serve', 'Stabilize', 'Open up', 'Measure'];
const labelSet = ['bug', 'frontend', 'backend', 'customer', 'tech-debt', 'security', 'ux'];
const severities: readonly IssueSeverity[] = ['low', 'medium', 'medium', 'high', 'critical'];
const issueStatuses: readonly IssueStatus[] = [
  'open',
  'open',
  'open',
  'in_progress',
  'blocked',
  'resolved',
  'closed',
];
const outcomeStatuses: readonly OutcomeStatus[] = [
  'planned',
  'in_progress',
  'in_progress',
  'shipped',
  'abandoned',
];

const count = (value: number | undefined, name: string): number => {
  const n = value ?? 0;
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`seed: ${name} must be a whole number ≥ 0`);
  return n;
};

/**
 * Fills the workspace with deterministic data, in one transaction, through the tracker's own
 * operations (so signals, counters, keys and webhook deliveries are what the API would make):
 * the same seed number on a fresh test tracker makes the same data and the same ids.
 */
export async function seedWorkspace(
  ctx: OperationContext,
  options: SeedOptions & { seed: number },
): Promise<Seeded> {
  const random = seededRandom(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const outcomeCount = count(options.outcomes, 'outcomes');
  const issueCount = count(options.issues, 'issues');
  const projectCount = Math.max(
    count(options.projects ?? 1, 'projects'),
    outcomeCount + issueCount > 0 ? 1 : 0,
  );
  const memberCount = count(options.members, 'members');
  const made: Seeded = { projects: [], outcomes: [], issues: [], members: [] };

  for (let i = 0; i < memberCount; i++) {
    const email = `member-${options.seed}-${i + 1}@seed.test`;
    const { user, membership } = await tenancy.addMember(
      { tx: ctx.tx, ids: ctx.ids, now: Date.parse(ctx.now) },
      { workspaceId: ctx.tenant.workspaceId, email, role: 'member' },
    );
    made.members.push({ userId: user.id, email, role: membership.role });
  }
  for (let i = 0; i < projectCount; i++) {
    const base = projectNames[i % projectNames.length] as string;
    const name = i < projectNames.length ? base : `${base} ${Math.floor(i / projectNames.length) + 1}`;
    made.projects.push(await projects.create(ctx, { name, description: `Seeded project ${i + 1}` }));
  }
  const outcomesOf = new Map<string, OutcomeView[]>();
  for (let i = 0; i < outcomeCount; i++) {
    const project = made.projects[i % projectCount] as ProjectView;
    const outcome = await outcomes.create(ctx, {
      projectId: project.id,
      title: `${pick(goals)} ${pick(things)}`,
      status: pick(outcomeStatuses),
    });
    made.outcomes.push(outcome);
    outcomesOf.set(project.id, [...(outcomesOf.get(project.id) ?? []), outcome]);
  }
  for (let i = 0; i < issueCount; i++) {
    const project = made.projects[i % projectCount] as ProjectView;
    const own = outcomesOf.get(project.id) ?? [];
    const outcome = own.length > 0 && random() < 0.5 ? pick(own) : null;
    const assignee = made.members.length > 0 && random() < 0.6 ? pick(made.members) : null;
    const labels = labelSet.filter(() => random() < 0.2);
    let issue = await issues.create(ctx, {
      projectId: project.id,
      title: `${pick(verbs)} ${pick(things)}`,
      severity: pick(severities),
      labels,
      ...(outcome ? { outcomeId: outcome.id } : {}),
      ...(assignee ? { assigneeId: assignee.userId } : {}),
    });
    const status = pick(issueStatuses);
    if (status !== 'open') issue = await issues.transition(ctx, issue.id, { to: status });
    made.issues.push(issue);
  }
  return made;
}
