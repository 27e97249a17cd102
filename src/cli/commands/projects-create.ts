import { z } from 'zod';
import { create as createProject } from '../../core/families/projects/api.js';
import { projectCreateSchema } from '../../core/families/projects/schema.js';
import { createTracker } from '../../core/tracker.js';
import { commonFlags, commonOptions, defineCommand, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import { UsageError } from '../errors.js';

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('The workspace of the project'),
    name: { type: 'string', value: '<name>', description: "The project's name" },
    key: {
      type: 'string',
      value: '<KEY>',
      description: 'Short code issue keys start with, e.g. APO (default: derived from the name)',
    },
    description: { type: 'string', value: '<text>', description: 'What the project is about' },
    ...commonFlags,
  },
  schema: z.strictObject({
    workspace: z.string(),
    name: z.string(),
    key: z.string().optional(),
    description: z.string().optional(),
    ...commonOptions,
  }),
  async run(input, io) {
    // The API's own rules for a new project, so the CLI and POST /projects accept the same input.
    const { workspace, db, json, ...fields } = input;
    const body = projectCreateSchema.safeParse(fields);
    if (!body.success) {
      const issue = body.error.issues[0];
      throw new UsageError(`--${String(issue?.path[0] ?? 'name')}: ${issue?.message ?? 'invalid value'}`);
    }
    const project = await withDatabase(io, db, { create: false }, ({ storage }) =>
      createTracker({ storage, rateLimit: false }).run({ workspaceSlug: workspace }, (ctx) =>
        createProject(ctx, body.data),
      ),
    );
    if (json) return io.out(JSON.stringify(project));
    io.out(`Created project ${project.key} "${project.name}" (${project.id}).`);
  },
});
