import { z } from 'zod';
import { openApiDocument } from '../../core/openapi/document.js';
import { commonFlags, commonOptions, defineCommand } from '../command.js';

export const command = defineCommand({
  flags: { ...commonFlags },
  schema: z.strictObject({ ...commonOptions }),
  notes: [
    'Prints the document GET /api/v1/openapi.json serves: indented, or on one line with --json.',
    'It describes the API itself, so no database is opened (--db is accepted and ignored).',
  ],
  async run(input, io) {
    io.out(JSON.stringify(openApiDocument(), null, input.json ? undefined : 2));
  },
});
