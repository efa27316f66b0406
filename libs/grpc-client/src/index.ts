export { type CallerContext, anonymousCaller, callerToMetadata, callerFromMetadata } from './caller-context';
export { toServiceError, fromServiceError, grpcStatusForHttp, deadlineExceeded } from './errors';
export { openChannel, bindClient, type Channel, type PromiseClient, type CallOptions } from './client';
export { bindServices, type PackageClients, type ClientName } from './bind-services';
export { protoFieldName, toProtoFields, fromProtoFields, type ProtoFieldName } from './field-names';
export { SiteSettingsReader, sitePageUrl, type SiteSettingsSnapshot } from './site-settings';
export { CachedValue } from './cached-value';
