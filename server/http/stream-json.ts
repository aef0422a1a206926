import type { TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';

/**
 * A 200 JSON answer whose body is sent as `chunks` come (a large list in bounded memory). The
 * first chunk is awaited before the answer begins, so a store that fails at once still gets
 * an error answer; a failure later ends the body early (the client sees a cut answer). `T`
 * is what the chunks spell, for the route's typed answer.
 */
export async function streamJson<T>(
  chunks: AsyncIterable<Uint8Array>,
): Promise<Response & TypedResponse<JSONParsed<T>, 200, 'json'>> {
  const it = chunks[Symbol.asyncIterator]();
  let pending: IteratorResult<Uint8Array> | null = await it.next();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pending ?? (await it.next());
      pending = null;
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await it.return?.();
    },
  });
  const res = new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
  return res as Response & TypedResponse<JSONParsed<T>, 200, 'json'>;
}
