/**
 * The run options that say how requests reach the target (`--header`,
 * `--proxy` or the standard proxy variables, `--ca-cert`), checked with the
 * rest of the configuration and turned into the client's Connection.
 */
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CLIENT_HEADERS, type Connection } from '../core/connection.ts';
import { UsageError } from '../core/errors.ts';
import { refuseIfNotRegularFile } from '../core/regular-file.ts';

/** A header name as HTTP allows it (a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `--header` entries ("Name: value") as lower-case names and values; a
 * malformed entry, a name given twice or a header the client sets itself is
 * refused in one line that never repeats the value (it may be a secret).
 */
export function parseHeaders(entries: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const name = colon < 0 ? '' : entry.slice(0, colon).trim();
    const value = colon < 0 ? '' : entry.slice(colon + 1).trim();
    if (!TOKEN.test(name))
      throw new UsageError(
        `--header must be "Name: value" with a header name before the colon, got ${colon < 0 ? 'no colon' : JSON.stringify(`${entry.slice(0, colon)}:`)}`,
      );
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header ${name}: its value must not hold a line break or NUL`);
    const key = name.toLowerCase();
    if (CLIENT_HEADERS.includes(key))
      throw new UsageError(
        `--header cannot set ${name}: the suite sets it itself${key === 'authorization' ? ' from the API key (DIRECTORY_API_KEY)' : key === 'service-version' ? ' (--service-version)' : ''}`,
      );
    if (key in out) throw new UsageError(`--header ${name} is given twice`);
    out[key] = value;
  }
  return out;
}

/** An http(s) proxy URL; its password (if any) is never repeated. */
export function checkProxyUrl(value: string, source = '--proxy'): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(
      `${source} must be an http(s) proxy URL such as http://proxy.example:3128, got ${JSON.stringify(value.replace(/\/\/.*@/, '//…@'))}`,
    );
}

/**
 * The proxy the standard variables give a target (as curl reads them):
 * https_proxy/HTTPS_PROXY for an https URL, http_proxy/HTTP_PROXY for http,
 * none when NO_PROXY names its host (`*`, a host, a domain with or without
 * its leading dot, each with an optional port). As Go's ProxyFromEnvironment
 * does, a loopback target is never proxied by the environment.
 */
export function proxyFromEnv(env: NodeJS.ProcessEnv, baseUrl: string): { proxy: string; variable: string } | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host)) return undefined;
  const names = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  const variable = names.find((n) => (env[n] ?? '') !== '');
  const proxy = variable === undefined ? undefined : env[variable];
  if (variable === undefined || proxy === undefined) return undefined;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? '';
  for (const entry of noProxy.split(/[,\s]+/).filter(Boolean)) {
    if (entry === '*') return undefined;
    const m = /^(?:\*?\.)?(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.toLowerCase());
    if (!m?.[1]) continue;
    const name = m[1].replace(/^\[|\]$/g, '');
    if (m[2] !== undefined && m[2] !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return undefined;
  }
  checkProxyUrl(proxy, variable);
  return { proxy, variable };
}

/**
 * The CA certificates a run trusts besides Node's bundled ones: the
 * `--ca-cert` file (refused in one line when it cannot be read or holds no
 * certificate), with those of NODE_EXTRA_CA_CERTS (Node's own setting, read
 * at its start), which giving CAs explicitly would otherwise leave out.
 */
export async function readCaCerts(path: string): Promise<string> {
  await refuseIfNotRegularFile(path, 'the CA certificate file');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read the CA certificate file ${path}: ${e instanceof Error && 'code' in e ? String(e.code) : String(e)}`,
    );
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0)
    throw new UsageError(`the CA certificate file ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  blocks.forEach((block, i) => {
    try {
      new X509Certificate(block);
    } catch {
      throw new UsageError(`the CA certificate file ${path}: certificate ${i + 1} of ${blocks.length} does not parse`);
    }
  });
  const nodeExtra = process.env.NODE_EXTRA_CA_CERTS;
  const extra = nodeExtra ? await readFile(nodeExtra, 'utf8').catch(() => '') : '';
  return [blocks.join('\n'), extra].filter(Boolean).join('\n');
}

/** The connection of a run to its target from the resolved options. */
export async function connectionOf(options: {
  headers: readonly string[];
  proxy?: string;
  caCert?: string;
}): Promise<Connection | undefined> {
  const headers = parseHeaders(options.headers);
  const connection: Connection = {
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(options.proxy !== undefined ? { proxy: options.proxy } : {}),
    ...(options.caCert !== undefined ? { ca: await readCaCerts(options.caCert) } : {}),
  };
  return Object.keys(connection).length > 0 ? connection : undefined;
}
