import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/core/openapi/document.js';
import { memoryCli } from '../cli/memory-io.js';

describe('outcome-tracker openapi', () => {
  it('prints the served OpenAPI 3.1 document, valid, with no database needed', async () => {
    const cli = memoryCli();
    const result = await cli.run(['openapi']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: [] });
    const printed = JSON.parse(result.stdout.join('\n'));
    expect(printed).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect((await new Validator().validate(printed)).valid).toBe(true);
  });

  it('prints it on one line with --json', async () => {
    const result = await memoryCli().run(['openapi', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toHaveLength(1);
    expect(JSON.parse(result.stdout[0] ?? '')).toMatchObject({
      openapi: '3.1.1',
      info: { title: 'outcome-tracker API' },
    });
  });
});
