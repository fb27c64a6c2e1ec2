/** The code of a Node.js system error (`ENOENT`, `EEXIST`, …), or undefined for any other thrown value. */
export function errnoCode(e: unknown): string | undefined {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}
