import { UsageError } from '../core/errors.ts';
import { FAULTS, isFaultName, type FaultName } from '../reference-server/faults.ts';
import { VARIANTS, isVariantName, type VariantName } from '../reference-server/variants.ts';

/** `--fault` values as fault names; an unknown one is a usage error pointing at near names. */
export function faultNames(given: readonly string[] | undefined): FaultName[] {
  return (given ?? []).map((f) => {
    if (isFaultName(f)) return f;
    throw new UsageError(`unknown fault ${JSON.stringify(f)}${nearest(f, Object.keys(FAULTS))}`);
  });
}

/** `--variant` values as variant names; an unknown one is a usage error listing them. */
export function variantNames(given: readonly string[] | undefined): VariantName[] {
  return (given ?? []).map((v) => {
    if (isVariantName(v)) return v;
    throw new UsageError(`unknown variant ${JSON.stringify(v)}; the variants: ${Object.keys(VARIANTS).join(', ')}`);
  });
}

/** A few known names that share the unknown one's first word, to point at a typo. */
function nearest(name: string, known: readonly string[]): string {
  const head = name.split('-')[0] ?? name;
  const near = known.filter((k) => k.startsWith(`${head}-`)).slice(0, 6);
  return near.length > 0
    ? `; faults starting with "${head}-": ${near.join(', ')}${near.length === 6 ? ', …' : ''}`
    : '';
}
