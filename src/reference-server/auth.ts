/**
 * §5: `Authorization: Bearer <key>`, or Basic (the interface description
 * declares it) with the key as the password. Two keys per instance: a full
 * one and a restricted, read-only one that sees Redacted values.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Caller } from './operation.ts';

export class ApiKeys {
  /** Random keys unless fixed ones are given (serve --api-key, for a staging-like setup that keeps its keys). */
  constructor(
    readonly full = `dcfull_${randomBytes(18).toString('base64url')}`,
    readonly restricted = `dcrestricted_${randomBytes(18).toString('base64url')}`,
  ) {
    this.fullBytes = Buffer.from(full);
    this.restrictedBytes = Buffer.from(restricted);
  }

  /** The keys as bytes, once: each request compares its key with them. */
  private readonly fullBytes: Buffer;
  private readonly restrictedBytes: Buffer;

  /** The caller a header authenticates, or undefined. */
  callerOf(header: string | undefined): Caller | undefined {
    if (!header) return undefined;
    const [scheme, value = ''] = header.trim().split(/\s+/, 2);
    let key: string | undefined;
    if (scheme?.toLowerCase() === 'bearer') key = value;
    if (scheme?.toLowerCase() === 'basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      key = colon >= 0 ? decoded.slice(colon + 1) : undefined;
    }
    if (key === undefined) return undefined;
    const given = Buffer.from(key);
    if (same(given, this.fullBytes)) return 'full';
    if (same(given, this.restrictedBytes)) return 'restricted';
    return undefined;
  }
}

function same(x: Buffer, y: Buffer): boolean {
  return x.length === y.length && timingSafeEqual(x, y);
}
