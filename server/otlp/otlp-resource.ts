import type { Sdk } from '../core/batch';
import type { OtlpResource } from './otlp-messages';
import { RecordRejection, stringAttribute } from './otlp-values';

export type ResourceContext = {
  release: string;
  environment: string;
  service_name: string;
  sdk: Sdk;
  /** Identifies the resource in record ids: the same record from two hosts is two records. */
  key: string;
};

/**
 * Lookout files every record under a service, release and environment; OTel keeps them on the
 * resource as `service.name`, `service.version` and `deployment.environment.name` (or the
 * older `deployment.environment`). A resource without one of them cannot be filed, so its
 * records are rejected with the attribute to set (the spec rejects blank releases).
 */
export function resourceContext(resource: OtlpResource): ResourceContext {
  const attrs = resource?.attributes ?? [];
  const service = stringAttribute(attrs, 'service.name');
  const release = stringAttribute(attrs, 'service.version');
  const environment = stringAttribute(
    attrs,
    'deployment.environment.name',
    'deployment.environment',
  );
  const missing = [
    service ? null : 'service.name',
    release ? null : 'service.version',
    environment ? null : 'deployment.environment.name',
  ].filter((m) => m !== null);
  if (missing.length > 0 || !service || !release || !environment)
    throw new RecordRejection(
      `the resource has no ${missing.join(', ')}; set ${missing.length > 1 ? 'them' : 'it'} in OTEL_RESOURCE_ATTRIBUTES (Lookout files telemetry by service, release and environment)`,
    );
  const sdkName = stringAttribute(attrs, 'telemetry.sdk.name') ?? 'otlp';
  const language = stringAttribute(attrs, 'telemetry.sdk.language');
  return {
    release,
    environment,
    service_name: service,
    sdk: {
      name: (language ? `${sdkName}.${language}` : sdkName).slice(0, 100),
      version: (stringAttribute(attrs, 'telemetry.sdk.version') ?? 'unspecified').slice(0, 50),
    },
    key: JSON.stringify(attrs),
  };
}
