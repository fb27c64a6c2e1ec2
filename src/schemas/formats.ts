/** Calendar-true checks for the string types of spec §2.1. */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLocalDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function parseDateRange(s: string): { start: string; end: string } | undefined {
  const parts = s.split('/');
  const [start, end] = parts;
  if (parts.length !== 2 || start === undefined || end === undefined) return undefined;
  if (!isLocalDate(start) || !isLocalDate(end)) return undefined;
  return { start, end };
}

/** Two real dates separated by `/`. Whether the end may precede the start is not shown: not checked here. */
export function isDateRange(s: string): boolean {
  return parseDateRange(s) !== undefined;
}

/** ISO 8601 duration: PnYnMnWnDTnHnMnS, at least one component, T followed by a time component. */
const DURATION =
  /^P(?!$)(\d+(?:[.,]\d+)?Y)?(\d+(?:[.,]\d+)?M)?(\d+(?:[.,]\d+)?W)?(\d+(?:[.,]\d+)?D)?(T(?=\d)(\d+(?:[.,]\d+)?H)?(\d+(?:[.,]\d+)?M)?(\d+(?:[.,]\d+)?S)?)?$/;

export function isDuration(s: string): boolean {
  return DURATION.test(s);
}
