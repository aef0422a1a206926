import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { textFrames } from './text-frames';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** What a WebSocket client reads when the server writes `bytes` onto the connection. */
async function received(bytes: Buffer, count: number): Promise<string[]> {
  const server = http.createServer();
  servers.push(server);
  const wss = new WebSocketServer({ server });
  wss.on('connection', (_ws, req) => req.socket.write(bytes));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  const messages: string[] = [];
  return new Promise((resolve, reject) => {
    client.on('error', reject);
    client.on('close', (code) => reject(new Error(`closed ${code}`)));
    client.on('message', (data: Buffer, isBinary) => {
      if (isBinary) reject(new Error('a binary frame'));
      messages.push(data.toString('utf8'));
      if (messages.length === count) {
        client.removeAllListeners('close');
        client.terminate();
        resolve(messages);
      }
    });
  });
}

describe('live feed text frames', () => {
  it('each message is one text frame a client reads back exactly, at every length encoding', async () => {
    const texts = [
      '',
      '{"type":"native_log","data":{"id":"a"}}',
      'é'.repeat(62) + 'x', // 125 bytes: the longest 7-bit length
      'ü'.repeat(63), // 126 bytes: the first 16-bit length
      'x'.repeat(65_535),
      '日本'.repeat(11_000), // 66,000 bytes: a 64-bit length
    ];
    expect(await received(textFrames(texts), texts.length)).toEqual(texts);
  });

  it('no messages are no bytes', () => {
    expect(textFrames([])).toHaveLength(0);
  });
});
