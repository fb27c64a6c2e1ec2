/**
 * How requests reach a target beyond its address (the Connection record of
 * src/core/connection.ts): the engine and preflight build their dispatchers
 * here, so each request of a run goes the same way, and teach their
 * redactors its secrets.
 */
import { rootCertificates } from 'node:tls';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { headerPlaceholder, secretHeader, type Connection } from '../core/connection.ts';
import type { Redactor } from './redact.ts';

export type { Connection } from '../core/connection.ts';

/** Teaches the redactor the connection's secrets: credential-like header values, the proxy's password. */
export function redactConnection(redactor: Redactor, connection: Connection | undefined): void {
  for (const [name, value] of Object.entries(connection?.headers ?? {}))
    if (secretHeader(name)) redactor.add(value, headerPlaceholder(name));
  if (connection?.proxy) {
    const { password } = new URL(connection.proxy);
    if (password) redactor.add(decodeURIComponent(password), '<proxy password>');
  }
}

/** The dispatcher of a run's requests to the target: through the proxy when there is one, trusting the extra CAs. */
export function dispatcherFor(connection: Connection | undefined, options: Agent.Options = {}): Dispatcher {
  const tls = connection?.ca ? { ca: [...rootCertificates, connection.ca] } : undefined;
  // An http target is asked of an http proxy in absolute form, as curl does (many proxies refuse a CONNECT
  // tunnel to a port other than 443); an https target always goes through a tunnel.
  if (connection?.proxy)
    return new ProxyAgent({
      ...options,
      uri: connection.proxy,
      proxyTunnel: false,
      ...(tls ? { requestTls: tls, proxyTls: tls } : {}),
    });
  return new Agent({ ...options, ...(tls ? { connect: tls } : {}) });
}
