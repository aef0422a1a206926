import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from './app';
import { testConfig } from './core/config';
import { createService } from './service';

type Json = unknown;

/** Every object in the document with the JSON path that leads to it. */
function* walk(node: Json, at = ''): Generator<[string, Record<string, Json>]> {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) yield* walk(v, `${at}/${i}`);
  } else if (node && typeof node === 'object') {
    const o = node as Record<string, Json>;
    yield [at, o];
    for (const [k, v] of Object.entries(o)) yield* walk(v, `${at}/${k}`);
  }
}

const allowsNull = (s: Record<string, Json>): boolean => {
  const type = s.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  const anyOf = s.anyOf;
  return Array.isArray(anyOf) && anyOf.some((x) => allowsNull(x as Record<string, Json>));
};

/**
 * The console's types are generated from this document, so a nullable field described as
 * never null (or as something no value satisfies) becomes a wrong type in the client.
 */
describe('the OpenAPI document', () => {
  let doc: Json;
  let dir = '';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-doc-'));
    const { app, store } = await createService(testConfig(dir));
    doc = openApiDocument(app);
    await store.close();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('never combines a schema with null through allOf (no value could satisfy it)', () => {
    const wrong = [...walk(doc)]
      .filter(([, o]) => Array.isArray(o.allOf))
      .filter(([, o]) => (o.allOf as Record<string, Json>[]).some((x) => allowsNull(x)))
      .map(([at]) => at);
    expect(wrong).toEqual([]);
  });

  it('lets every next_cursor be null, as every last page says', () => {
    const cursors = [...walk(doc)]
      .filter(([at]) => at.endsWith('/properties/next_cursor'))
      .map(([at, o]) => ({ at, nullable: allowsNull(o) }));
    expect(cursors.length).toBeGreaterThan(5);
    expect(cursors.filter((c) => !c.nullable).map((c) => c.at)).toEqual([]);
  });

  it('answers 200 on success unless the spec states another status', () => {
    // Spec, Endpoints: "Success status is `200` unless stated"; it states these two only.
    const stated: Record<string, string> = {
      'POST /api/auth/web/logout': '204',
      'GET /api/feed/live': '101',
    };
    const paths = (doc as { paths: Record<string, Record<string, { responses: object }>> }).paths;
    const wrong: string[] = [];
    for (const [route, operations] of Object.entries(paths))
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${route}`;
        const success = Object.keys(operation.responses).filter((s) => /^[123]/.test(s));
        if (success.join() !== (stated[name] ?? '200')) wrong.push(`${name}: ${success.join()}`);
      }
    expect(wrong).toEqual([]);
  });

  it('documents 403 on every route a tool connection can be refused on (an account bearer)', () => {
    const missing: string[] = [];
    const paths = (doc as { paths: Record<string, Record<string, Json>> }).paths;
    for (const [route, item] of Object.entries(paths))
      for (const [method, op] of Object.entries(item)) {
        const { security, responses } = op as {
          security?: Record<string, Json>[];
          responses?: Record<string, Json>;
        };
        if (!security?.some((s) => 'accountBearer' in s)) continue;
        if (responses?.['403'] === undefined) missing.push(`${method.toUpperCase()} ${route}`);
      }
    expect(missing).toEqual([]);
  });
});
