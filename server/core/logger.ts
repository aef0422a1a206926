import type { ServiceConfig } from './config';

export type Logger = {
  info(message: string, fields?: Record<string, string | number>): void;
  error(message: string, fields?: Record<string, string | number>): void;
};

const rank = { silent: 0, error: 1, info: 2, debug: 3 } as const;

/** One JSON line per entry on stdout. Callers pass only fields safe to record (never bodies or tokens). */
export function createLogger(level: ServiceConfig['logLevel']): Logger {
  const write = (
    lvl: 'info' | 'error',
    message: string,
    fields?: Record<string, string | number>,
  ) => {
    if (rank[lvl] > rank[level]) return;
    process.stdout.write(
      `${JSON.stringify({ t: new Date().toISOString(), level: lvl, msg: message, ...fields })}\n`,
    );
  };
  return {
    info: (m, f) => write('info', m, f),
    error: (m, f) => write('error', m, f),
  };
}
