import { describe, expect, it } from 'vitest';
import { isIdSegment, namingQuality, spanNaming, type SpanNamingInput } from './trace-naming';

const span = (o: Partial<SpanNamingInput>): SpanNamingInput => ({
  name: 'CheckoutService.place',
  operation: null,
  kind: 'internal',
  attributes: {},
  ...o,
});

describe('spanNaming', () => {
  it.each(['GET', ' post ', 'HTTP GET', 'span', 'Handler', '<anonymous>', 'request', ' '])(
    'calls %j a generic name',
    (name) => {
      expect(spanNaming(span({ name })).genericName).toBe(true);
    },
  );

  it.each(['GET /products/{id}', 'SELECT products', 'checkout.place_order', 'getUser'])(
    'keeps %j as a meaningful name',
    (name) => {
      expect(spanNaming(span({ name }))).toEqual({
        genericName: false,
        unmatchedRoute: false,
        genericOperation: false,
      });
    },
  );

  it('flags a server span with an HTTP method but no route template', () => {
    const server = span({ name: 'GET', kind: 'server', attributes: { 'http.method': 'GET' } });
    expect(spanNaming(server).unmatchedRoute).toBe(true);
    const routed = { ...server, attributes: { 'http.method': 'GET', 'http.route': '/stock' } };
    expect(spanNaming(routed).unmatchedRoute).toBe(false);
    // The newer semantic convention, and an http.server operation without a kind.
    expect(
      spanNaming(
        span({
          operation: 'http.server',
          kind: null,
          attributes: { 'http.request.method': 'GET' },
        }),
      ).unmatchedRoute,
    ).toBe(true);
    // A client span calls a URL: no route template is expected of it.
    expect(
      spanNaming(span({ kind: 'client', attributes: { 'http.method': 'GET' } })).unmatchedRoute,
    ).toBe(false);
  });

  it.each([
    ['GET /orders/123456', true],
    ['GET /users/3f0c6c35-4c7e-4c7a-9a3e-2b8b1f0e8a11/cart', true],
    ['DELETE /carts/0123456789abcdef0123', true],
    ['GET /orders/{id}', false],
    ['GET /v2/orders', false],
    ['GET /orders?page=123456', false],
  ])('reads a raw path in %j as an unmatched route: %s', (name, unmatched) => {
    expect(spanNaming(span({ name })).unmatchedRoute).toBe(unmatched);
  });

  it('flags placeholder operations only', () => {
    expect(spanNaming(span({ operation: 'default' })).genericOperation).toBe(true);
    expect(spanNaming(span({ operation: ' Unknown ' })).genericOperation).toBe(true);
    expect(spanNaming(span({ operation: 'db.query' })).genericOperation).toBe(false);
    expect(spanNaming(span({ operation: null })).genericOperation).toBe(false);
  });

  it('tells id segments from route words', () => {
    expect(isIdSegment('42')).toBe(true);
    expect(isIdSegment('order-123456')).toBe(true);
    expect(isIdSegment('v2')).toBe(false);
    expect(isIdSegment('checkout')).toBe(false);
  });
});

describe('namingQuality', () => {
  const t = (g: number, u: number, o: number) => ({
    genericNameSpans: g,
    unmatchedRouteSpans: u,
    genericOperationSpans: o,
  });

  it('counts each trace once per category and advises when any is present', () => {
    expect(namingQuality([t(2, 1, 0), t(0, 0, 0), t(0, 0, 3)], true)).toEqual({
      evaluated_traces: 3,
      meaningful_name_traces: 2,
      generic_name_traces: 1,
      unmatched_route_traces: 1,
      generic_operation_traces: 1,
      truncated: true,
      next_action: { code: 'improve_trace_naming', target: 'sdk_configuration' },
    });
  });

  it('has no next action for a page of well-named traces or an empty page', () => {
    expect(namingQuality([t(0, 0, 0)], false).next_action).toBeNull();
    expect(namingQuality([], false)).toMatchObject({ evaluated_traces: 0, next_action: null });
  });
});
