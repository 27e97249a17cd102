import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/index.js';
import { type ClientFixture, clientFixture } from './harness.js';

describe.each(['node', 'in-process'] as const)('client.members (%s)', (mode) => {
  let f: ClientFixture;
  afterEach(async () => {
    await f?.close();
  });

  it('invites by email: a member with a one-time link, refused for an address that is none', async () => {
    f = await clientFixture(mode);
    const client = f.client();
    const invite = await client.members.invite({ email: 'ada@acme.test', role: 'viewer' });
    expect(invite).toMatchObject({ email: 'ada@acme.test', role: 'viewer' });
    // Over HTTP the link is absolute (the scheme and Host the request came by); in process, with
    // no Host, it is the path on the server.
    expect(invite.inviteUrl).toMatch(
      mode === 'in-process'
        ? /^\/invite\/[A-Za-z0-9_-]{43}$/
        : /^http:\/\/127\.0\.0\.1:\d+\/invite\/[A-Za-z0-9_-]{43}$/,
    );
    const member = await client.members.get(invite.memberId);
    expect(member).toMatchObject({ email: 'ada@acme.test', role: 'viewer', version: 1 });
    const listed = await client.members.list({ role: 'viewer' }).page();
    expect(listed.data.map((m) => m.email)).toContain('ada@acme.test');

    const refused = await client.members
      .invite({ email: 'not an address', role: 'member' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});
