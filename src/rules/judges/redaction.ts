/**
 * Redaction per caller (§5, §2.1) in any answer: the fields a caller may
 * not view are replaced by the Redacted value. Which fields the restricted
 * key may not view is the profile's (`restrictedRedactedFields`); which
 * requests carried the restricted key, the recording says (a placeholder the
 * user names to `judge`). The rules of specs/auth.spec.ts read the same
 * fields of the reads their drivers made; this judges one answer of any
 * client. Pure.
 */
import { validateSchema } from '../../schemas/index.ts';
import type { TargetProfile } from '../../target/profile.ts';
import { isRecord, recordsOf } from '../json-values.ts';
import { isNoEvidence, judgeAny, noEvidence, type Judgement } from './judgement.ts';
import type { Observed } from './observed.ts';

/** The fields of a team assignation and of an activity-rate period that may be redacted. */
export const TEAM_FIELDS = ['regrouping', 'contract_number', 'external_id'];
export const RATE_FIELDS = ['indemnity_enabled', 'compensation_enabled'];

/** Some Redacted marker stands in place of the value (its exact shape is auth.redacted-marker-shape's business). */
export function isRedacted(v: unknown): boolean {
  return isRecord(v) && 'redacted' in v;
}

/** The redactable fields of a read's records, each named by its place in the answer. */
function redactable(o: Observed): Array<{ where: string; field: string; value: unknown; present: boolean }> {
  const fields =
    o.operation === 'resources.show-teams'
      ? TEAM_FIELDS
      : o.operation === 'resources.show-activity-rates'
        ? RATE_FIELDS
        : [];
  return recordsOf(o.body).flatMap((r, i) =>
    fields.map((f) => ({ where: `${o.step}: response.body[${i}].${f}`, field: f, value: r[f], present: f in r })),
  );
}

/** A 200 read of teams or rates made with the restricted key: every field it may not view is the Redacted value. */
export function restrictedFieldsRedacted(o: Observed, profile: TargetProfile): Judgement {
  const hidden = profile.restrictedRedactedFields ?? [];
  if (o.credential !== 'restricted' || o.status !== 200 || hidden.length === 0)
    return noEvidence('no read with the restricted key of a field it may not view');
  const judged = redactable(o).filter((f) => hidden.includes(f.field) && f.present);
  if (judged.length === 0) return noEvidence(`${o.step} shows none of the fields the restricted key may not view`);
  return judged
    .filter((f) => !isRedacted(f.value))
    .map((f) => ({
      where: f.where,
      message: 'must be the Redacted value for a caller that may not view it',
      expected: { redacted: 'forbidden' },
      actual: f.value,
    }));
}

/** A 200 read of teams or rates: every marker in a redactable field is exactly the Redacted value. */
export function markersShaped(o: Observed): Judgement {
  const markers = o.status === 200 ? redactable(o).filter((f) => isRecord(f.value)) : [];
  if (markers.length === 0) return noEvidence(`${o.step} shows no field replaced by a marker`);
  return markers.flatMap((m) => validateSchema('Redacted', m.value, m.where));
}

/** Each answer of the log judged alone by `judge` (`judgeAny`); `none` where no answer showed the clause. */
export function eachAnswer(log: readonly Observed[], judge: (o: Observed) => Judgement, none: string): Judgement {
  const judged = judgeAny(log.map(judge));
  return isNoEvidence(judged) ? noEvidence(none) : judged;
}
