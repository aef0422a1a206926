import type { Principal } from '../auth/principal';

export type AppEnv = {
  Variables: {
    principal: Principal;
    /** Set by `requireIngestKey` on the ingest routes: the project the key belongs to. */
    ingestKey: { projectId: string; keyId: string };
    /** The parsed JSON body, set by `jsonBody()`. */
    jsonBody: unknown;
    /** The JSON body's text, set by `jsonBody()` with `jsonBody`. */
    jsonText: string;
    /** Set by the error handler so the access log can record the error code. */
    errorCode: string;
  };
};
