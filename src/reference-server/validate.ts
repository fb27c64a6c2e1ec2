/** Field readers that refuse bad input with a 400 naming the field. */
import { badRequest } from './errors.ts';
import { parseSpan, type Span } from './days.ts';
import { isLocalDate } from '../schemas/formats.ts';

export type Body = Record<string, unknown>;
const SNOWFLAKE = /^[0-9]{1,20}$/;

export function optional<T>(body: Body, field: string, read: (value: unknown, field: string) => T): T | undefined {
  return body[field] === undefined ? undefined : read(body[field], field);
}

/** `path` names the field in messages when it sits inside another object (e.g. `filters[0].key`). */
export function required<T>(body: Body, field: string, read: (value: unknown, field: string) => T, path = field): T {
  if (body[field] === undefined || body[field] === null) throw badRequest(path, 'is required');
  return read(body[field], path);
}

export function snowflake(value: unknown, field: string): string {
  if (typeof value !== 'string' || !SNOWFLAKE.test(value))
    throw badRequest(field, 'must be a Snowflake (a string of decimal digits)');
  return value;
}

export function snowflakes(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw badRequest(field, 'must be an array of Snowflake');
  if (value.length > 10_000) throw badRequest(field, 'must hold at most 10000 identifiers');
  return value.map((v, i) => snowflake(v, `${field}[${i}]`));
}

export function boolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw badRequest(field, 'must be a boolean');
  return value;
}

export function string(value: unknown, field: string): string {
  if (typeof value !== 'string') throw badRequest(field, 'must be a string');
  if (value.length > 1000) throw badRequest(field, 'must be at most 1000 characters');
  return value;
}

export function finiteNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(field, 'must be a number');
  return value;
}

export function dateRange(value: unknown, field: string): Span {
  if (typeof value !== 'string') throw badRequest(field, 'must be a DateRange string "YYYY-MM-DD/YYYY-MM-DD"');
  const span = parseSpan(value);
  if (typeof span === 'string') throw badRequest(field, span);
  return span;
}

export function localDate(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isLocalDate(value))
    throw badRequest(field, 'must be a LocalDate "YYYY-MM-DD" that exists in the calendar');
  return value;
}

/** A JSON object (not null, not an array). */
export function isBody(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function object(value: unknown, field: string): Body {
  if (!isBody(value)) throw badRequest(field, 'must be an object');
  return value;
}

export function array(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw badRequest(field, 'must be an array');
  if (value.length > 1000) throw badRequest(field, 'must hold at most 1000 entries');
  return value;
}
