import type { Duplex } from 'node:stream';

/**
 * Why a socket was ended here. One error for every socket: Node hands it to each write still
 * queued, where a socket destroyed without one makes a new error for each (`errorBuffer`).
 * A live-feed connection 16 MiB behind holds about 130,000 queued writes: made one by one,
 * their errors took about 1 s of CPU in one go, stalling every other request; shared, 10–35 ms.
 */
const STOPPED_READING = new Error('the connection stopped reading');

/** Ends a connection whose peer stopped reading, queued writes and all. */
export function endStalledSocket(socket: Duplex): void {
  socket.destroy(STOPPED_READING);
}

/**
 * After a close was sent (a WebSocket close frame): ends the socket if the peer has not
 * closed it within `graceMs`, as `ws` would only after 30 s and with an error per queued
 * write. A peer that reads gets the close frame and its code; one that never reads is cut.
 */
export function endUnlessClosedWithin(socket: Duplex, graceMs: number): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => endStalledSocket(socket), graceMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
