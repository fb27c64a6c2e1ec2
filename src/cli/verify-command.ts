import { writeFile } from 'node:fs/promises';
import { describeCounts, honestCounts } from '../core/summarise.ts';
import { UsageError } from '../core/errors.ts';
import { refuseIfNotRegularFile } from '../core/regular-file.ts';
import { readJsonFile } from '../gate/read-json-file.ts';
import { loadPublicKey, renderBadge } from '../session/bundle.ts';
import { verifyBundle } from '../session/verify-bundle.ts';
import { checkedFile } from '../schemas/files.ts';
import { VERIFY_HELP } from './help.ts';
import { parseOptions } from './options.ts';
import type { Output } from './run-command.ts';

const VERIFY_OPTIONS = {
  'public-key': { type: 'string' },
  badge: { type: 'string' },
} as const;

/**
 * `directory-conformance verify BUNDLE --public-key PEM`: a signed run
 * checked by anyone who holds the signer's public key, with no request sent
 * (src/session/verify-bundle.ts says what is checked). Exit 0 verified, 1
 * refused, 2 a file or key that cannot be read as one.
 */
export async function verifyCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseOptions(argv, VERIFY_OPTIONS, true);
  if (values.help) {
    io.out(VERIFY_HELP);
    return 0;
  }
  const path = positionals[0];
  if (!path || positionals.length > 1) throw new UsageError('verify takes one bundle (conformance-bundle.json)');
  const keyPath = values['public-key'];
  if (keyPath === undefined)
    throw new UsageError('verify needs --public-key PEM: the key of whoever signed the bundle');
  const key = await loadPublicKey(keyPath);
  await refuseIfNotRegularFile(path, 'the bundle');
  const bundle = checkedFile('ConformanceBundle', await readJsonFile(path, 'bundle'), path);
  const { refusals, judgedAgain } = await verifyBundle(bundle, key);
  if (refusals.length > 0) {
    for (const line of refusals) io.out(`refused: ${line}`);
    return 1;
  }
  const { summary, target } = bundle.results;
  const counts = honestCounts(bundle.results.results);
  io.out(
    `verified: ${path}, signed by ${bundle.signature.publicKey}; ${target.baseUrl} (${target.serviceVersion}) ` +
      `${summary.outcome}, ${describeCounts(counts)}; ${judgedAgain} verdicts judged again from ` +
      `${bundle.har.log.entries.length} exchanges, each as the bundle says`,
  );
  if (values.badge !== undefined) {
    await writeFile(values.badge, renderBadge(target.serviceVersion, counts, summary.conformant));
    io.out(`badge: ${values.badge}`);
  }
  return 0;
}
