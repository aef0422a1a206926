import { execFile } from 'node:child_process';
import path from 'node:path';
import type { OtelProgramOutput } from './otel-program';

const PROGRAM = path.resolve(import.meta.dirname, 'otel-program.ts');

export type OtelRun = {
  baseUrl: string;
  ingestKey: string;
  tag: string;
  service: string;
  release: string;
  environment: string;
};

/**
 * Runs the instrumented program in its own Node process, configured only through the standard
 * OTEL_* variables as a user would: OTLP/HTTP to the service's /otlp base, the ingest key as a
 * header, protobuf for traces and metrics (traces gzipped), JSON for logs. Resolves with what
 * the program says it sent; rejects with its stderr when any export failed.
 */
export function runOtelProgram(run: OtelRun): Promise<OtelProgramOutput> {
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_'))),
    OTEL_EXPORTER_OTLP_ENDPOINT: `${run.baseUrl}/otlp`,
    // The SDK URL-decodes header values: %20 is the space after "Bearer".
    OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer%20${encodeURIComponent(run.ingestKey)}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip',
    OTEL_SERVICE_NAME: run.service,
    OTEL_RESOURCE_ATTRIBUTES: `service.version=${run.release},deployment.environment.name=${run.environment}`,
  };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', PROGRAM, run.tag],
      { env, timeout: 45_000 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`the OpenTelemetry program failed (${error.message}):\n${stderr}`));
          return;
        }
        const line = stdout.trim().split('\n').at(-1) ?? '';
        try {
          resolve(JSON.parse(line) as OtelProgramOutput);
        } catch {
          reject(new Error(`the OpenTelemetry program printed no result:\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}
