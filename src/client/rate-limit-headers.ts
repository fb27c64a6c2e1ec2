/**
 * What a server says about its rate limit, read from every form in use:
 * `Retry-After` (seconds or an HTTP date), the IETF draft fields in their
 * newer structured form (`RateLimit: "default";r=50;t=30`,
 * `RateLimit-Policy: "default";q=100;w=60`), their draft-07 form
 * (`RateLimit: limit=100, remaining=50, reset=30`, `RateLimit-Policy: 100;w=60`),
 * the older separate `RateLimit-Limit/Remaining/Reset` and the common
 * `X-RateLimit-Limit/Remaining/Reset`. Nothing here is trusted blindly: values
 * that do not parse are ignored, and the pacer only ever slows down on them.
 */

export interface RateLimitHint {
  /** Requests the server still accepts now (the smallest over its policies). */
  remaining?: number;
  /** Quota of the policy `remaining` belongs to (a window's quota or a bucket's size). */
  limit?: number;
  /** Seconds until the quota is restored (a window's reset, a bucket full again). */
  resetSeconds?: number;
  /** The slowest sustained rate among the advertised policies (quota / window), requests per second. */
  sustainedPerSecond?: number;
  /** Retry-After in milliseconds, when present and valid. */
  retryAfterMs?: number;
}

/** Retry-After in milliseconds (seconds or an HTTP date), or undefined when absent or invalid. */
export function parseRetryAfter(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and zone; anything else Date.parse might accept is not one.
  const date = /^[A-Za-z]{3},/.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

interface Item {
  /** The bare item: a name (`"default"`) or a number (`100`). */
  value: string;
  params: Map<string, string>;
}

/** A structured-field list, read loosely: `a;k=v;k2=v2, b;k=v`. Quoted names hold no commas in practice. */
function parseList(text: string): Item[] {
  return text
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '')
    .map((member) => {
      const [head = '', ...rest] = member.split(';');
      const params = new Map<string, string>();
      for (const p of rest) {
        const eq = p.indexOf('=');
        if (eq > 0)
          params.set(
            p.slice(0, eq).trim().toLowerCase(),
            p
              .slice(eq + 1)
              .trim()
              .replace(/^"|"$/g, ''),
          );
      }
      return { value: head.trim().replace(/^"|"$/g, ''), params };
    });
}

function number(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text.trim());
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The first number of a field such as `100` or `100, 100;w=60` (draft-06 allowed a policy after the number). */
function leadingNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return number(/^\s*([0-9.]+)/.exec(text)?.[1]);
}

/**
 * X-RateLimit-Reset is seconds from now in some services and a Unix time
 * (seconds, sometimes milliseconds) in others: values that can only be a time
 * are read as one.
 */
function resetSecondsOf(value: number, nowMs: number): number {
  if (value > 1e12) return Math.max(0, (value - nowMs) / 1000);
  if (value > 1e9) return Math.max(0, value - nowMs / 1000);
  return value;
}

interface Policy {
  name: string;
  quota: number;
  windowSeconds: number;
}

function policiesOf(text: string | undefined): Policy[] {
  if (text === undefined) return [];
  const out: Policy[] = [];
  for (const item of parseList(text)) {
    const w = number(item.params.get('w'));
    // Newer form: "name";q=100;w=60. Draft-07 and earlier: 100;w=60.
    const q = number(item.params.get('q')) ?? number(item.value);
    if (q !== undefined && w !== undefined && w > 0) out.push({ name: item.value, quota: q, windowSeconds: w });
  }
  return out;
}

/** Everything a response says about the rate limit; header names are lower-case (as the client records them). */
export function readRateLimitHeaders(headers: Record<string, string>, nowMs = Date.now()): RateLimitHint {
  const hint: RateLimitHint = {};
  const retryAfterMs = parseRetryAfter(headers['retry-after'], nowMs);
  if (retryAfterMs !== undefined) hint.retryAfterMs = retryAfterMs;

  const policies = policiesOf(headers['ratelimit-policy']);
  if (policies.length > 0) hint.sustainedPerSecond = Math.min(...policies.map((p) => p.quota / p.windowSeconds));

  const combined = headers.ratelimit;
  if (combined !== undefined) {
    const items = parseList(combined);
    const draft07 = new Map<string, string>();
    for (const item of items) {
      const eq = item.value.indexOf('=');
      if (eq > 0) draft07.set(item.value.slice(0, eq).trim().toLowerCase(), item.value.slice(eq + 1).trim());
    }
    if (draft07.has('remaining')) {
      // Draft-07: limit=100, remaining=50, reset=30
      setIfDefined(hint, 'remaining', number(draft07.get('remaining')));
      setIfDefined(hint, 'limit', number(draft07.get('limit')));
      setIfDefined(hint, 'resetSeconds', number(draft07.get('reset')));
    } else {
      // Newer structured form: one item per policy, "name";r=50;t=30. The tightest one binds.
      let best: { r: number; t?: number; name: string } | undefined;
      for (const item of items) {
        const r = number(item.params.get('r'));
        if (r === undefined || (best && best.r <= r)) continue;
        const t = number(item.params.get('t'));
        best = { r, name: item.value, ...(t !== undefined ? { t } : {}) };
      }
      if (best) {
        hint.remaining = best.r;
        if (best.t !== undefined) hint.resetSeconds = best.t;
        const policy = policies.find((p) => p.name === best.name) ?? (policies.length === 1 ? policies[0] : undefined);
        if (policy) hint.limit = policy.quota;
      }
    }
  }

  for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
    if (hint.remaining !== undefined) break;
    const remaining = leadingNumber(headers[`${prefix}remaining`]);
    if (remaining === undefined) continue;
    hint.remaining = remaining;
    setIfDefined(hint, 'limit', leadingNumber(headers[`${prefix}limit`]));
    const reset = leadingNumber(headers[`${prefix}reset`]);
    if (reset !== undefined) hint.resetSeconds = prefix === 'x-ratelimit-' ? resetSecondsOf(reset, nowMs) : reset;
  }
  if (hint.limit === undefined && policies.length > 0) hint.limit = Math.min(...policies.map((p) => p.quota));
  return hint;
}

function setIfDefined<K extends keyof RateLimitHint>(hint: RateLimitHint, key: K, value: RateLimitHint[K]): void {
  if (value !== undefined) hint[key] = value;
}
