import { ApiError } from '../../errors.js';
import type { Project } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import { UniqueViolation } from '../../port/index.js';
import { firstVersion, getForWrite, getOr404, listPage, present } from '../shared/operations.js';
import { applyChanges } from '../shared/update.js';
import { projectEvents } from './events.js';
import { deriveProjectKey, firstFreeKey } from './key.js';
import type { ProjectCreate, ProjectListQuery, ProjectPatch } from './schema.js';

export type ProjectView = ReturnType<typeof present<Project>>;
export const presentProject = (project: Project): ProjectView => present(project);

const resourceOf = (project: Project) => ({ type: 'project', id: project.id });

const keyTaken = (key: string) =>
  new ApiError(400, 'validation_failed', `The project key ${key} is already used in this workspace.`, {
    issues: [{ in: 'body', path: 'key', message: 'already used in this workspace' }],
  });

/** Creates a project; without a key, one is derived from the name and made unique. */
export async function createProject(ctx: OperationContext, input: ProjectCreate): Promise<ProjectView> {
  const projects = ctx.tx.collections.projects;
  const workspaceId = ctx.tenant.workspaceId;
  const key =
    input.key ??
    (await firstFreeKey(
      deriveProjectKey(input.name),
      async (k) => (await projects.findOne(workspaceId, { key: k })) !== null,
    ));
  const project: Project = {
    id: ctx.ids.id('prj'),
    workspaceId,
    name: input.name,
    key,
    description: input.description ?? null,
    ...firstVersion(ctx),
  };
  try {
    await projects.insert(project);
  } catch (error) {
    if (error instanceof UniqueViolation && error.what === 'project.key') throw keyTaken(key);
    throw error;
  }
  await ctx.emit({
    type: projectEvents.created,
    resource: resourceOf(project),
    data: { object: presentProject(project) },
  });
  return presentProject(project);
}

export async function getProject(ctx: OperationContext, id: string): Promise<ProjectView> {
  return presentProject(await getOr404(ctx, 'projects', id, 'project'));
}

export async function listProjects(
  ctx: OperationContext,
  query: ProjectListQuery,
): Promise<Page<ProjectView>> {
  return listPage(ctx, 'projects', query, {}, presentProject);
}

export async function updateProject(
  ctx: OperationContext,
  id: string,
  patch: ProjectPatch,
): Promise<ProjectView> {
  const current = await getForWrite(ctx, 'projects', id, 'project');
  const { row } = await applyChanges(ctx, 'projects', current, patch as Partial<Project>, {
    type: projectEvents.updated,
    resourceType: 'project',
    present: presentProject,
  });
  return presentProject(row);
}
