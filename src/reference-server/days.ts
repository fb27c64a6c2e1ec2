/**
 * Dates as day numbers (days since 1970-01-01, UTC) so ranges compare and
 * split with integer arithmetic. DateRange ends are inclusive here.
 */
import { isLocalDate } from '../schemas/formats.ts';

export interface Span {
  start: number;
  end: number;
}

export function toDay(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

export function fromDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

export function formatSpan(span: Span): string {
  return `${fromDay(span.start)}/${fromDay(span.end)}`;
}

/** A DateRange of two real dates, start <= end, or a message saying what is wrong. */
export function parseSpan(value: string): Span | string {
  const parts = value.split('/');
  const [a, b] = parts;
  if (parts.length !== 2 || a === undefined || b === undefined)
    return 'must be two dates separated by "/" (YYYY-MM-DD/YYYY-MM-DD)';
  if (!isLocalDate(a)) return `start ${JSON.stringify(a)} is not a calendar date (YYYY-MM-DD)`;
  if (!isLocalDate(b)) return `end ${JSON.stringify(b)} is not a calendar date (YYYY-MM-DD)`;
  const span = { start: toDay(a), end: toDay(b) };
  if (span.end < span.start) return 'end must not precede start';
  return span;
}

/** The same days, start and end. */
export function sameSpan(a: Span, b: Span): boolean {
  return a.start === b.start && a.end === b.end;
}

export function overlaps(a: Span, b: Span): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** What remains of `span` once `cut` is taken out: zero, one or two pieces. */
export function subtract(span: Span, cut: Span): Span[] {
  if (!overlaps(span, cut)) return [span];
  const pieces: Span[] = [];
  if (span.start < cut.start) pieces.push({ start: span.start, end: cut.start - 1 });
  if (span.end > cut.end) pieces.push({ start: cut.end + 1, end: span.end });
  return pieces;
}

export function todayDay(): number {
  return Math.floor(Date.now() / 86_400_000);
}
