import type { Socket } from 'node:net';

/** How long a closing connection keeps reading what its client still sends, at most. */
export const lingerMs = 2_000;
/** How much it reads (and drops) meanwhile, at most. */
export const lingerBytes = 8 * 1024 * 1024;

/**
 * A lingering close, for a connection answered before its request's body was read (a 413 for a
 * body declared larger than allowed). Node closes such a connection as soon as the answer is
 * flushed, and a socket closed with unread data makes the kernel reset the connection: a client
 * still sending its body may then lose the answer it has not read yet. So once the answer is out,
 * this half-closes instead (the client reads the answer, then end of stream) and drops what
 * still arrives, until the client closes, `lingerMs` pass or `lingerBytes` arrive.
 *
 * It replaces the socket's `destroySoon`, which Node's server calls once the answer of a
 * `Connection: close` request is flushed.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    let dropped = 0;
    const timer = setTimeout(() => this.destroy(), lingerMs);
    timer.unref();
    this.on('data', (chunk: Buffer) => {
      dropped += chunk.byteLength;
      if (dropped > lingerBytes) this.destroy();
    });
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
    this.end();
    this.resume();
  };
}
