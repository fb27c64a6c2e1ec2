/**
 * The HTTP layer: routing, authentication, Service-Version, content type,
 * body size and JSON parsing, then one operation. Any refusal is a 4xx JSON
 * body `{ message, field }`; an unexpected exception is a 500 (the reference
 * has none: its tests fuzz every operation and allow no 5xx).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Timing } from '../core/timing.ts';
import type { ApiKeys } from './auth.ts';
import { ApiError } from './errors.ts';
import { fromDay, parseSpan } from './days.ts';
import type { Caller, OperationContext, OperationMaybeLater, OperationResult } from './operation.ts';
import { list } from './operations/list.ts';
import { assignActivityRate, showActivityRates, unassignActivityRate } from './operations/rates.ts';
import { listRoles, revokeRoles } from './operations/roles.ts';
import { assignTeam, showTeams } from './operations/teams.ts';
import type { FaultName } from './faults.ts';
import type { PageTokens } from './page-token.ts';
import type { Store } from './store.ts';
import type { VariantName } from './variants.ts';
import { isBody, type Body } from './validate.ts';

export const SUPPORTED_SERVICE_VERSIONS: readonly string[] = ['26.06.25'];
export const MAX_BODY_BYTES = 1024 * 1024;
const PREFIX = '/api/directory/';
const MUTATIONS_WITH_RANGE = new Set([
  'resources.assign-team',
  'resources.assign-activity-rate',
  'resources.unassign-activity-rate',
]);

/**
 * Variant 'exclusive-end': the server speaks DateRanges whose end is exclusive,
 * by moving every date_range end by one day at the boundary (the store keeps
 * inclusive ends).
 */
function shiftRanges(value: unknown, days: number): unknown {
  if (Array.isArray(value)) return value.map((v) => shiftRanges(v, days));
  return isBody(value) ? shiftBody(value, days) : value;
}

function shiftBody(body: Body, days: number): Body {
  const out: Body = {};
  for (const [k, v] of Object.entries(body)) {
    const span = (k === 'date_range' || k === 'new_date_range') && typeof v === 'string' ? parseSpan(v) : undefined;
    out[k] =
      span && typeof span !== 'string' ? `${fromDay(span.start)}/${fromDay(span.end + days)}` : shiftRanges(v, days);
  }
  return out;
}

function isDateRange(value: unknown): boolean {
  return typeof value === 'string' && typeof parseSpan(value) !== 'string';
}

const OPERATIONS: Record<string, OperationMaybeLater> = {
  'resources.list': list,
  'resources.list-roles': listRoles,
  'resources.revoke-roles': revokeRoles,
  'resources.show-teams': showTeams,
  'resources.assign-team': assignTeam,
  'resources.show-activity-rates': showActivityRates,
  'resources.assign-activity-rate': assignActivityRate,
  'resources.unassign-activity-rate': unassignActivityRate,
};

export interface HttpDeps {
  store: Store;
  tokens: PageTokens;
  keys: ApiKeys;
  faults: ReadonlySet<FaultName>;
  variants: ReadonlySet<VariantName>;
  timing: Timing;
  /** Told, once each answer is sent, which faults the request's handling asked about (see FaultsAsked). */
  onFaultsAsked?: FaultsAskedListener;
}

/** A request (its operation and body as sent) and the faults its handling asked about. */
export type FaultsAskedListener = (operation: string, body: string, asked: ReadonlySet<FaultName>) => void;

/**
 * The faults of one request, noting each one its handling asks about: every
 * fault lives where operation code asks `faults.has(name)`, so a request that
 * never asks about a fault cannot show it (the proof's reach, src/mutation).
 */
class FaultsAsked extends Set<FaultName> {
  readonly asked = new Set<FaultName>();

  constructor(private readonly on: ReadonlySet<FaultName>) {
    super();
  }

  override has(fault: FaultName): boolean {
    this.asked.add(fault);
    return this.on.has(fault);
  }
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (res.headersSent) return;
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  sendJson(res, status, JSON.stringify(body));
}

function sendJson(res: ServerResponse, status: number, text: string | readonly Buffer[]): void {
  if (res.headersSent) return;
  if (typeof text !== 'string') {
    let bytes = 0;
    for (const piece of text) bytes += piece.length;
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes });
    // Written in one tick, the pieces leave in one writev with the headers, each from where it is.
    for (let i = 0; i < text.length - 1; i++) res.write(text[i]);
    res.end(text[text.length - 1]);
    return;
  }
  const bytes = Buffer.byteLength(text);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes,
  });
  // As many bytes as characters: the text is ASCII, whose bytes are the same in every encoding, and
  // writing it as 'ascii' is a copy where UTF-8 encodes character by character. ('ascii', not
  // 'latin1': Node glues the headers to a latin1 or UTF-8 body first, one more copy of the body.)
  res.end(text, bytes === text.length ? 'ascii' : 'utf8');
}

function textOf(pieces: readonly Buffer[]): string {
  return Buffer.concat(pieces).toString('utf8');
}

/**
 * Calls `done` once: with the body, or with what went wrong. A callback, not
 * a promise: the request path stays synchronous around it (no microtask hops
 * per request).
 */
function readBody(req: IncomingMessage, done: (error: unknown, raw?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (error: unknown, raw?: Buffer): void => {
    if (settled) return;
    settled = true;
    done(error, raw);
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      settle(new ApiError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`));
      req.resume();
      return;
    }
    chunks.push(chunk);
  });
  // A small body comes in one chunk: used as it is rather than copied.
  req.on('end', () => settle(undefined, chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)));
  req.on('error', (error) => settle(error));
}

interface Admitted {
  name: string;
  operation: OperationMaybeLater;
  caller: Caller;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** The operation a path names ('' for none). */
function operationNameOf(pathname: string): string {
  return pathname.startsWith(PREFIX) ? pathname.slice(PREFIX.length) : '';
}

/** What can be decided before the body is read: the operation, the caller, the headers. */
function admit(req: IncomingMessage, res: ServerResponse, deps: HttpDeps): Admitted {
  const pathname = pathOf(req);
  const name = operationNameOf(pathname);
  const operation = Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
  if (!operation)
    throw new ApiError(404, `unknown operation ${JSON.stringify(pathname)}; operations are POST ${PREFIX}<operation>`);
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    throw new ApiError(405, `method ${req.method ?? ''} not allowed: every operation is a POST`);
  }
  const header = req.headers.authorization;
  let caller = deps.keys.callerOf(header);
  if (!caller && !header && deps.faults.has('auth-anonymous-accepted')) caller = 'full';
  if (!caller && /^bearer\s+\S/i.test(header ?? '') && deps.faults.has('auth-any-bearer-accepted')) caller = 'full';
  if (!caller) {
    res.setHeader('www-authenticate', 'Bearer, Basic');
    throw new ApiError(
      401,
      header ? 'the credentials are not valid' : 'missing Authorization header (Bearer <API key>)',
      'Authorization',
    );
  }
  const version = req.headers['service-version'];
  if (version === undefined && deps.variants.has('version-required'))
    throw new ApiError(400, 'the Service-Version header is required', 'Service-Version');
  if (version !== undefined && !SUPPORTED_SERVICE_VERSIONS.includes(String(version))) {
    throw new ApiError(
      400,
      `Service-Version ${JSON.stringify(version)} is not supported (supported: ${SUPPORTED_SERVICE_VERSIONS.join(', ')})`,
      'Service-Version',
    );
  }
  const contentType = String(req.headers['content-type'] ?? '');
  if (contentType !== 'application/json' && !/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new ApiError(
      415,
      `Content-Type must be application/json, got ${JSON.stringify(contentType)}`,
      'Content-Type',
    );
  }
  return { name, operation, caller };
}

function respond(raw: Buffer, res: ServerResponse, deps: HttpDeps, { name, operation, caller }: Admitted): void {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    if (deps.faults.has('malformed-json-500')) throw new Error('unexpected token in JSON');
    throw new ApiError(400, 'the request body is not valid JSON', 'body');
  }
  if (!isBody(body)) throw new ApiError(400, 'the request body must be a JSON object', 'body');
  const ctx: OperationContext = {
    store: deps.store,
    tokens: deps.tokens,
    faults: deps.faults,
    variants: deps.variants,
    caller,
    timing: deps.timing,
    ...(deps.faults instanceof FaultsAsked ? { renderAfresh: true } : {}),
  };
  if (
    deps.faults.has('mutations-ignore-malformed-date-range') &&
    MUTATIONS_WITH_RANGE.has(name) &&
    !isDateRange(body.date_range)
  ) {
    send(res, name === 'resources.assign-team' ? 200 : 204, name === 'resources.assign-team' ? {} : undefined);
    return;
  }
  if (deps.variants.has('exclusive-end')) {
    settle(operation(shiftBody(body, -1), ctx), res, deps, (result) => {
      const json = typeof result.json === 'string' || result.json === undefined ? result.json : textOf(result.json);
      const out: unknown = json !== undefined ? JSON.parse(json) : result.body;
      send(res, result.status, out === undefined ? undefined : shiftRanges(out, 1));
    });
    return;
  }
  settle(operation(body, ctx), res, deps, (result) => {
    if (result.json !== undefined) sendJson(res, result.status, result.json);
    else send(res, result.status, result.body);
  });
}

/** Sends a result now, or once a fault's promise of one settles (a rejection is refused as a throw would be). */
function settle(
  result: OperationResult | Promise<OperationResult>,
  res: ServerResponse,
  deps: HttpDeps,
  sendResult: (result: OperationResult) => void,
): void {
  if (!(result instanceof Promise)) {
    sendResult(result);
    return;
  }
  result.then(
    (settled) => {
      try {
        sendResult(settled);
      } catch (error) {
        refuse(res, error, deps);
      }
    },
    (error: unknown) => refuse(res, error, deps),
  );
}

/** A refusal is its 4xx JSON answer; anything else thrown is a crash. */
function refuse(res: ServerResponse, error: unknown, deps: HttpDeps): void {
  if (error instanceof ApiError) {
    const status =
      deps.variants.has('status-422') &&
      error.field &&
      error.field !== 'Authorization' &&
      [400, 404].includes(error.status)
        ? 422
        : error.status;
    const body = deps.variants.has('problem-details')
      ? { type: 'about:blank', title: 'Request refused', status, detail: error.message }
      : { message: error.message, ...(error.field ? { field: error.field } : {}) };
    const silent =
      (status === 400 && deps.faults.has('errors-400-without-message')) ||
      (status === 404 && deps.faults.has('errors-404-without-message')) ||
      (status === 401 && deps.faults.has('errors-401-without-message'));
    send(res, status, silent ? { field: error.field ?? null } : (error.body ?? body));
  } else {
    // A crash is a 500, with or without faults: it must never pass for a correct rejection.
    // The reference never crashes: its tests fuzz every operation and allow no 5xx.
    send(res, 500, { message: 'internal server error' });
  }
}

export function createHttpServer(serverDeps: HttpDeps): Server {
  return createServer((req, res) => {
    const { onFaultsAsked } = serverDeps;
    const faults = onFaultsAsked ? new FaultsAsked(serverDeps.faults) : undefined;
    const deps = faults ? { ...serverDeps, faults } : serverDeps;
    let admitted: Admitted;
    try {
      admitted = admit(req, res, deps);
    } catch (error) {
      refuse(res, error, deps);
      // Refused before its body was read (its caller, its path): the faults it asked about are its body's too.
      if (faults && onFaultsAsked) {
        readBody(req, (_error, raw) =>
          onFaultsAsked(operationNameOf(pathOf(req)), raw ? textOf([raw]) : '', faults.asked),
        );
      }
      return;
    }
    readBody(req, (error, raw) => {
      if (faults && onFaultsAsked && raw !== undefined) {
        res.once('finish', () => onFaultsAsked(admitted.name, textOf([raw]), faults.asked));
      }
      if (raw === undefined) {
        refuse(res, error, deps);
        return;
      }
      try {
        respond(raw, res, deps, admitted);
      } catch (error) {
        refuse(res, error, deps);
      }
    });
  });
}
