import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { fail } from '../core/api-error';

/**
 * Node refuses a request whose head (request line, URL and headers) passes 16 KiB before the
 * app sees it, with a bare `431` and no body. A client with a long query string gets the
 * spec's envelope instead, saying what to shorten. Other malformed HTTP keeps Node's answer:
 * it is not a request our routes could have read.
 */
export function answerOversizedHeads(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code !== 'HPE_HEADER_OVERFLOW' || !socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(
      fail
        .validation(
          'the request line and headers together are larger than 16 KiB',
          'Send fewer or shorter query values (for example fewer project_ids or a shorter search), then repeat the request.',
        )
        .toBody(),
    );
    socket.end(
      'HTTP/1.1 422 Unprocessable Entity\r\n' +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
