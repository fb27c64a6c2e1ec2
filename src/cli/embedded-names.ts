import { UsageError } from '../core/errors.ts';
import { FAULTS, isFaultName, type FaultName } from '../reference-server/faults.ts';
import { VARIANTS, isVariantName, type VariantName } from '../reference-server/variants.ts';
import { unknownName } from '../session/run-config.ts';

/** `--fault` values as fault names; an unknown one is a usage error naming the one meant, or the known ones. */
export function faultNames(given: readonly string[] | undefined): FaultName[] {
  return (given ?? []).map((f) => {
    if (isFaultName(f)) return f;
    throw new UsageError(unknownName('fault', f, Object.keys(FAULTS)));
  });
}

/** `--variant` values as variant names, checked the same way. */
export function variantNames(given: readonly string[] | undefined): VariantName[] {
  return (given ?? []).map((v) => {
    if (isVariantName(v)) return v;
    throw new UsageError(unknownName('variant', v, Object.keys(VARIANTS)));
  });
}
