import type { Ids, StorageTx } from '../core/extension-kit.js';
import type { AdminPasswords } from './passwords.js';
import type { SignInThrottle } from './throttle.js';

/** An admin-page request, as the handlers see it: cookies, query and form already parsed. */
export interface AdminRequest {
  /** GET (HEAD arrives as GET) or POST. */
  method: string;
  path: string;
  query: URLSearchParams;
  /** The urlencoded form of a POST; empty for a GET. */
  form: URLSearchParams;
  cookies: Map<string, string>;
  clientAddress: string;
  /** Whether the browser reached us over https (cookies then get `Secure`). */
  secure: boolean;
  /** The If-None-Match header, for the pages that answer 304. */
  ifNoneMatch?: string;
}

/** What an admin handler runs with: one storage transaction, the request time and the request. */
export interface AdminContext {
  tx: StorageTx;
  nowMs: number;
  ids: Ids;
  throttle: SignInThrottle;
  passwords: AdminPasswords;
  req: AdminRequest;
}
