import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { endStalledSocket, endUnlessClosedWithin } from './end-stalled-socket';

/** A server socket whose peer never reads, with writes queued behind it. */
async function stalledPair(): Promise<{ socket: net.Socket; stop: () => void }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const peer = net.connect(address.port, '127.0.0.1');
  peer.pause();
  const socket = await accepted;
  return {
    socket,
    stop: () => {
      peer.destroy();
      server.close();
    },
  };
}

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

describe('ending a socket whose peer stopped reading', () => {
  it('hands every queued write the same error, so no error is made per write', async () => {
    const pair = await stalledPair();
    stop = pair.stop;
    const errors: (Error | null | undefined)[] = [];
    const chunk = Buffer.alloc(64 * 1024, 'x');
    // Past what the kernel's buffers take, writes queue in the socket.
    while (pair.socket.writableLength < 32 * 1024 * 1024)
      pair.socket.write(chunk, (e) => errors.push(e));
    pair.socket.on('error', () => undefined);
    endStalledSocket(pair.socket);
    await new Promise((r) => setTimeout(r, 50));
    // Writes the kernel took meanwhile complete; the rest fail.
    const failed = errors.filter((e) => e);
    expect(failed.length).toBeGreaterThan(100);
    expect(new Set(failed).size).toBe(1);
    expect(failed[0]?.message).toBe('the connection stopped reading');
  });

  it('leaves a socket its peer closes in time, and cuts one that stays open', async () => {
    const closing = await stalledPair();
    stop = closing.stop;
    endUnlessClosedWithin(closing.socket, 200);
    closing.socket.end();
    closing.stop();
    await new Promise((r) => closing.socket.once('close', r));
    expect(closing.socket.errored).toBeNull();

    const stalled = await stalledPair();
    stop = stalled.stop;
    stalled.socket.on('error', () => undefined);
    endUnlessClosedWithin(stalled.socket, 50);
    await new Promise((r) => stalled.socket.once('close', r));
    expect(stalled.socket.errored?.message).toBe('the connection stopped reading');
  });
});
