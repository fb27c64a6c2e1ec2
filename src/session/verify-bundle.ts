/**
 * What `verify` checks of a signed bundle (bundle.ts), each a reason to
 * refuse it: the signature, made by the key given over exactly what the
 * bundle holds; the catalogue and the spec it was judged with, this suite's
 * (else its verdicts cannot be judged again here); the profile, its hash and
 * its schema; the target the results name, the bundle's; the summary, the
 * results' own counts; and every verdict that rests on the rule's own
 * evidence, the one its exchanges give when judged again. A bundle whose
 * signer is trusted but whose verdicts do not follow is refused all the same.
 */
import type { KeyObject } from 'node:crypto';
import { allRules, loadCatalogue } from '../runner/catalogue.ts';
import { recordedExchanges } from '../runner/recorded-traffic.ts';
import { verdictsNotFollowing } from '../runner/rejudge.ts';
import { checkProfile } from '../target/load-profile.ts';
import { keyFingerprint, profileHash, signatureHolds, suiteHashes, type Bundle } from './bundle.ts';

export interface BundleVerdict {
  /** Why the bundle is refused, one line each; empty when it is verified. */
  refusals: string[];
  /** Rules whose verdict was judged again from the exchanges and found the same. */
  judgedAgain: number;
}

export async function verifyBundle(bundle: Bundle, publicKey: KeyObject): Promise<BundleVerdict> {
  const given = keyFingerprint(publicKey);
  if (bundle.signature.publicKey !== given)
    return refused(`signed with another key (${bundle.signature.publicKey}), not the one given (${given})`);
  if (!signatureHolds(bundle, publicKey))
    return refused('the signature does not match what the bundle holds: it was changed after it was signed');
  const refusals: string[] = [];
  const ours = await suiteHashes();
  if (bundle.hashes.catalogue !== ours.catalogue)
    refusals.push(
      `the bundle was judged with another rule catalogue (${bundle.hashes.catalogue}; this suite's is ` +
        `${ours.catalogue}): verify it with the suite version that made it (${bundle.suite.version})`,
    );
  if (bundle.hashes.spec !== ours.spec)
    refusals.push(`the bundle was judged against another spec (${bundle.hashes.spec}; this suite's is ${ours.spec})`);
  if (profileHash(bundle.target.profile) !== bundle.target.profileHash)
    refusals.push(`the target's profile does not have the hash the bundle gives it (${bundle.target.profileHash})`);
  const { results } = bundle;
  if (
    results.target.baseUrl !== bundle.target.baseUrl ||
    results.target.serviceVersion !== bundle.target.serviceVersion
  )
    refusals.push(
      `the results name another target (${results.target.baseUrl}, ${results.target.serviceVersion}) than the ` +
        `bundle's (${bundle.target.baseUrl}, ${bundle.target.serviceVersion})`,
    );
  refusals.push(...summaryDepartures(bundle));
  if (refusals.length > 0) return { refusals, judgedAgain: 0 };
  const profile = checkProfile(bundle.target.profile, "the bundle's target profile");
  const rules = allRules(await loadCatalogue());
  const recorded = recordedExchanges(bundle.har);
  const { compared, otherwise } = verdictsNotFollowing(results.results, recorded, rules, profile);
  if (otherwise.length > 0)
    return refused(...otherwise.map((line) => `a verdict does not follow from the bundle's exchanges: ${line}`));
  return { refusals: [], judgedAgain: compared };
}

function refused(...refusals: string[]): BundleVerdict {
  return { refusals, judgedAgain: 0 };
}

/** The summary's counts against the results': an edited verdict left the summary it had. */
function summaryDepartures({ results }: Bundle): string[] {
  const counted = new Map<string, number>();
  for (const r of results.results) counted.set(r.verdict, (counted.get(r.verdict) ?? 0) + 1);
  const lines = Object.entries(results.summary.byVerdict)
    .filter(([verdict, n]) => n !== (counted.get(verdict) ?? 0))
    .map(([verdict, n]) => `the summary counts ${n} ${verdict} where the results hold ${counted.get(verdict) ?? 0}`);
  if (results.summary.total !== results.results.length)
    lines.push(`the summary counts ${results.summary.total} rules where the results hold ${results.results.length}`);
  return lines;
}
