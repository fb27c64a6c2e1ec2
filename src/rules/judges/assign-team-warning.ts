/**
 * The §4.3 warning body as a judge knows it: an answer to assign-team that
 * carries `warning_type` (its status is not shown, so the body alone tells
 * it from a success). One copy for the rules that drive assignments, the
 * model that replays them, and the traffic judged without tags.
 */
export function isWarning(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'warning_type' in body;
}
