import { afterEach } from 'vitest';
import type { Served } from './process.js';

/**
 * Kills (SIGKILL) after each test every server the test handed to the returned `track`, which
 * hands the server back.
 */
export function killAfterEach(): <S extends Served>(served: S) => S {
  const running: Served[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((served) => served.stop('SIGKILL')));
  });
  return (served) => {
    running.push(served);
    return served;
  };
}
