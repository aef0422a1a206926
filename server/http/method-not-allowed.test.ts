import type { RouterRoute } from 'hono/types';
import { describe, expect, it } from 'vitest';
import { createMethodIndex } from './method-not-allowed';

const route = (method: string, path: string): RouterRoute => ({
  method,
  path,
  basePath: '/',
  handler: () => new Response(null),
});

describe('createMethodIndex', () => {
  const index = createMethodIndex([
    route('ALL', '*'),
    route('GET', '/api/projects'),
    route('POST', '/api/projects'),
    route('POST', '/api/projects'),
    route('POST', '/api/projects/:project_id/ingest-keys'),
    route('GET', '/api/logs/:log_id'),
    route('GET', '/api/logs/attributes'),
    route('POST', '/api/logs/attributes'),
  ]);

  it('names every method of a known path, once, with the template in OpenAPI form', () => {
    expect(index.allowedFor('/api/projects')).toEqual({
      methods: ['GET', 'POST'],
      path: '/api/projects',
    });
    expect(index.allowedFor('/api/projects/abc/ingest-keys')).toEqual({
      methods: ['POST'],
      path: '/api/projects/{project_id}/ingest-keys',
    });
  });

  it('prefers a static segment over a parameter', () => {
    expect(index.allowedFor('/api/logs/attributes')).toEqual({
      methods: ['GET', 'POST'],
      path: '/api/logs/attributes',
    });
    expect(index.allowedFor('/api/logs/123')).toEqual({
      methods: ['GET'],
      path: '/api/logs/{log_id}',
    });
  });

  it('knows nothing of other paths: extra or missing segments, a trailing slash, catch-alls', () => {
    expect(index.allowedFor('/api/projects/')).toBeNull();
    expect(index.allowedFor('/api/projects/abc')).toBeNull();
    expect(index.allowedFor('/api/projects/abc/ingest-keys/x')).toBeNull();
    expect(index.allowedFor('/api/projectsx')).toBeNull();
    expect(index.allowedFor('/anything')).toBeNull();
  });
});
