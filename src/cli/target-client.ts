import { dispatcherFor, redactConnection } from '../client/connection.ts';
import { DirectoryClient } from '../client/directory-client.ts';
import { Redactor } from '../client/redact.ts';
import { checkProxyUrl, connectionOf, proxyFromEnv } from '../session/connection-options.ts';
import type { Dispatcher } from 'undici';

/** What a command outside a run (`restore`, `init`) is given of the target, as its flags and environment say. */
export interface TargetFlags {
  baseUrl: string;
  serviceVersion: string;
  apiKey: string;
  /** Also kept out of every line the command prints. */
  restrictedApiKey?: string | undefined;
  header?: string[] | undefined;
  proxy?: string | undefined;
  caCert?: string | undefined;
}

/**
 * A client of the target as a run reaches it (its extra headers, proxy and
 * CAs, the proxy from HTTPS_PROXY/HTTP_PROXY unless NO_PROXY names the host),
 * the redactor that keeps every key out of what the command prints, and the
 * dispatcher to close when done.
 */
export async function targetClient(
  flags: TargetFlags,
  env: NodeJS.ProcessEnv,
): Promise<{ client: DirectoryClient; redactor: Redactor; dispatcher: Dispatcher }> {
  if (flags.proxy !== undefined) checkProxyUrl(flags.proxy);
  const connection = await connectionOf({
    headers: flags.header ?? [],
    proxy: flags.proxy ?? proxyFromEnv(env, flags.baseUrl)?.proxy,
    caCert: flags.caCert ?? env.DIRECTORY_CA_CERT,
  });
  const redactor = new Redactor();
  redactor.add(flags.apiKey, '$DIRECTORY_API_KEY');
  redactor.add(flags.restrictedApiKey, '$DIRECTORY_RESTRICTED_API_KEY');
  redactConnection(redactor, connection);
  const dispatcher = dispatcherFor(connection, { connections: 2 });
  const client = new DirectoryClient({
    baseUrl: flags.baseUrl,
    serviceVersion: flags.serviceVersion,
    dispatcher,
    redactor,
    timeoutMs: 15_000,
    credential: { apiKey: flags.apiKey, placeholder: '$DIRECTORY_API_KEY' },
    ...(connection?.headers ? { extraHeaders: connection.headers } : {}),
  });
  return { client, redactor, dispatcher };
}
