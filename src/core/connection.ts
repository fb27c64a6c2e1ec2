/**
 * How requests reach a target beyond its address: fixed extra headers
 * (`--header`), an HTTP proxy (`--proxy`, HTTPS_PROXY…) and CA certificates
 * to trust besides Node's own (`--ca-cert`). The session builds it from the
 * run configuration; the client sends through it (src/client/connection.ts).
 */
export interface Connection {
  /** Sent with every request, lower-case names; a credential-like value is redacted (secretHeader). */
  headers?: Readonly<Record<string, string>>;
  /** An http(s) proxy URL; its password, if any, is redacted too. */
  proxy?: string;
  /** PEM text of CA certificates trusted besides Node's bundled ones. */
  ca?: string;
}

/** Headers the client sets itself: a fixed header cannot replace them (the rules about them would judge it). */
export const CLIENT_HEADERS: readonly string[] = [
  'accept',
  'accept-encoding',
  'authorization',
  'content-type',
  'content-length',
  'service-version',
  'host',
  'connection',
  'transfer-encoding',
];

/** A header whose value is a credential by its name (Authorization-like): never shown in a report. */
export function secretHeader(name: string): boolean {
  return /auth|token|key|secret|cookie|session|passw|credential|signature/i.test(name);
}

/** What a report shows instead of a secret header's value: a variable to set before replaying a curl command. */
export function headerPlaceholder(name: string): string {
  return `$DIRECTORY_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}
