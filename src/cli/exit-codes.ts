import type { RunSummary } from '../core/types.ts';

/**
 * What a CI gate reads. 0: conformant, with the coverage required; 1: the
 * server broke a rule; 2: a usage or configuration mistake, or a target that
 * cannot be reached or authenticated; 3: inconclusive (harness ERRORs,
 * coverage below the threshold, rules NOT-TESTED, an unusable target).
 */
export const EXIT = { conformant: 0, notConformant: 1, usage: 2, inconclusive: 3 } as const;

export function exitCodeOf(summary: Pick<RunSummary, 'outcome'>): number {
  switch (summary.outcome) {
    case 'conformant':
      return EXIT.conformant;
    case 'not-conformant':
      return EXIT.notConformant;
    case 'inconclusive':
      return EXIT.inconclusive;
  }
}
