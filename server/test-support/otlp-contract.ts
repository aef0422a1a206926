import { afterAll, beforeAll, expect } from 'vitest';
import { call, signIn } from './api-client';
import type { OtlpSignal } from '../otlp/otlp-messages';
import { sendOtlp, type Encoding, type OtlpAnswer, type OtlpJson } from './otlp';
import { startService, type RunningService } from './start-service';
import { createTenant, type Tenant } from './telemetry';

/**
 * What the OTLP contract tests check on every answer, and a tenant whose owner reads back what
 * an exporter stored through the read routes a console uses.
 */

export type OtlpReader = Tenant & { token: string };

export async function otlpReader(svc: RunningService<boolean>): Promise<OtlpReader> {
  const tenant = await createTenant(svc, { password: 'otlp-reader-password' });
  const token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
  return { ...tenant, token };
}

/** GET of a read route in the reader's project (its `project_id` is added); expects 200. */
export async function readAs<T = Record<string, unknown>[]>(
  svc: RunningService<boolean>,
  t: OtlpReader,
  path: string,
): Promise<T> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await call(svc.baseUrl, 'GET', `${path}${sep}project_id=${t.projectId}`, {
    token: t.token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as T;
}

const contentTypeOf = (as: Encoding) =>
  as === 'json' ? /^application\/json/ : /^application\/x-protobuf/;

/** Full success: 200 in the request's encoding, and no partialSuccess at all. */
export function expectOtlpSuccess(res: OtlpAnswer, as: Encoding): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.contentType).toMatch(contentTypeOf(as));
  expect(res.body).toEqual({});
}

/** A failure: the HTTP status, and a google.rpc.Status in the request's encoding. */
export function expectOtlpStatus(
  res: OtlpAnswer,
  status: number,
  reason: string,
  as: Encoding,
  grpcCode: number,
): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.contentType).toMatch(contentTypeOf(as));
  expect(res.failure?.reason).toBe(reason);
  expect(res.failure?.code).toBe(grpcCode);
  expect(res.failure?.message).not.toBe('');
  expect(res.failure?.metadata.error).not.toBe('');
  expect(res.failure?.metadata.next).not.toBe('');
  if (as === 'json') {
    const details = res.body.details as Record<string, unknown>[];
    expect(details[0]?.['@type']).toBe('type.googleapis.com/google.rpc.ErrorInfo');
    expect(details[0]?.domain).toBe('lookout');
  }
}

/** Sends as the reader's exporter and expects 200; the decoded response (partialSuccess). */
export async function otlpSend(
  svc: RunningService<boolean>,
  t: OtlpReader,
  signal: OtlpSignal,
  request: OtlpJson,
  as: Encoding,
): Promise<{ partialSuccess?: Record<string, unknown> }> {
  const res = await sendOtlp(svc.baseUrl, signal, request, { as, token: t.ingestKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { partialSuccess?: Record<string, unknown> };
}

/** Sends and expects full success. */
export async function otlpSendOk(
  svc: RunningService<boolean>,
  t: OtlpReader,
  signal: OtlpSignal,
  request: OtlpJson,
  as: Encoding,
): Promise<void> {
  expect(await otlpSend(svc, t, signal, request, as)).toEqual({});
}

/**
 * One service for a file of OTLP contract tests (started before them, closed after), with the
 * reader, read and send helpers bound to it.
 */
export function otlpContractService() {
  let running: RunningService<false> | null = null;
  beforeAll(async () => {
    running = await startService();
  });
  afterAll(() => running?.close());
  const svc = (): RunningService<false> => {
    if (!running) throw new Error('the OTLP contract service is not started yet');
    return running;
  };
  return {
    svc,
    reader: () => otlpReader(svc()),
    read: <T = Record<string, unknown>[]>(t: OtlpReader, path: string) => readAs<T>(svc(), t, path),
    send: (t: OtlpReader, signal: OtlpSignal, request: OtlpJson, as: Encoding) =>
      otlpSend(svc(), t, signal, request, as),
    sendOk: (t: OtlpReader, signal: OtlpSignal, request: OtlpJson, as: Encoding) =>
      otlpSendOk(svc(), t, signal, request, as),
  };
}
