/**
 * Messages as unmasked WebSocket text frames (RFC 6455 §5.2: FIN, opcode 1, the payload's
 * length in 7, 16 or 64 bits), one frame per message, all in one buffer. A publish is encoded
 * once and the same bytes go to every connection that gets it: sent as strings, each
 * connection would measure and encode every message into UTF-8 again (25 clients: 25 times).
 */
export function textFrames(texts: readonly string[]): Buffer {
  let total = 0;
  const lengths = texts.map((t) => {
    const n = Buffer.byteLength(t);
    total += headerLength(n) + n;
    return n;
  });
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const [k, text] of texts.entries()) {
    const n = lengths[k] ?? 0;
    out[at] = 0x81;
    if (n < 126) {
      out[at + 1] = n;
      at += 2;
    } else if (n < 65_536) {
      out[at + 1] = 126;
      out.writeUInt16BE(n, at + 2);
      at += 4;
    } else {
      out[at + 1] = 127;
      out.writeUInt32BE(Math.floor(n / 2 ** 32), at + 2);
      out.writeUInt32BE(n >>> 0, at + 6);
      at += 10;
    }
    at += out.write(text, at);
  }
  return out;
}

const headerLength = (n: number) => (n < 126 ? 2 : n < 65_536 ? 4 : 10);
