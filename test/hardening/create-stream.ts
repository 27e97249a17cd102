import { randomUUID } from 'node:crypto';

/** One create the stream sent, and what became of it. */
export interface SentCreate {
  idempotencyKey: string;
  title: string;
  /** The status of the answer; null when the connection failed before an answer arrived. */
  status: number | null;
  /** The created issue, for a 201. */
  issue: { id: string; key: string } | null;
  /** For a failed connection: the error code under the fetch failure (ECONNREFUSED, ECONNRESET…). */
  failure: string | null;
}

export interface CreateStream {
  /** Every create sent so far, in the order sent. */
  sent: SentCreate[];
  /** How many 201s have arrived. */
  acknowledged(): number;
  /** Resolves once `count` creates have been acknowledged (or the stream has ended). */
  acknowledgedAtLeast(count: number): Promise<void>;
  /** Resolves once every worker has stopped: each stops at its first failed connection. */
  ended: Promise<void>;
}

/** The code of a failed fetch: undici wraps the socket's error as `cause`. */
function failureCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(error);
}

/**
 * Sends `POST /issues` without pause, `inFlight` at a time, each with its own Idempotency-Key,
 * until the server stops answering: a worker stops at its first failed connection (a killed
 * or stopped server refuses or resets them all).
 */
export function streamCreates(
  apiUrl: string,
  token: string,
  projectId: string,
  inFlight: number,
): CreateStream {
  const sent: SentCreate[] = [];
  let acknowledged = 0;
  const waiters: { count: number; done: () => void }[] = [];
  const wake = () => {
    for (const waiter of [...waiters]) {
      if (acknowledged < waiter.count) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.done();
    }
  };

  const worker = async () => {
    for (;;) {
      const create: SentCreate = {
        idempotencyKey: randomUUID(),
        title: `Durable issue ${sent.length}`,
        status: null,
        issue: null,
        failure: null,
      };
      sent.push(create);
      try {
        const response = await fetch(`${apiUrl}/issues`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': create.idempotencyKey,
          },
          body: JSON.stringify({ projectId, title: create.title }),
        });
        const body = (await response.json()) as { id: string; key: string };
        create.status = response.status;
        if (response.status === 201) {
          create.issue = { id: body.id, key: body.key };
          acknowledged++;
          wake();
        }
      } catch (error) {
        // The answer may have been cut off after its status: what counts is that it never arrived whole.
        create.status = null;
        create.issue = null;
        create.failure = failureCode(error);
        return;
      }
    }
  };

  const ended = Promise.all(Array.from({ length: inFlight }, worker)).then(() => {
    for (const waiter of waiters.splice(0)) waiter.done();
  });
  return {
    sent,
    acknowledged: () => acknowledged,
    acknowledgedAtLeast: (count) =>
      acknowledged >= count ? Promise.resolve() : new Promise((done) => waiters.push({ count, done })),
    ended,
  };
}
