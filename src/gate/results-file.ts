import { checkedFile, oneLine, type FileType } from '../schemas/files.ts';
import { resultsJsonProblems } from '../schemas/results-schema.ts';
import { readJsonFile } from './read-json-file.ts';

/** What compare and `expectations update --from` read of a results.json (src/report/json.ts writes it). */
export type ResultsFile = FileType<'ResultsFile'>;

/** A shard's results.json as merge reads it: the whole run but its summary, which merge computes again. */
export type RunRecord = FileType<'RunRecord'>;

/** A results.json written by `run`, checked against its schema (src/schemas/files.ts): a bad one is a usage error. */
export async function readResults(path: string): Promise<ResultsFile> {
  return checkedFile('ResultsFile', await readJsonFile(path, 'results file'), path);
}

/** A results.json as merge needs it. */
export async function readRunRecord(path: string): Promise<RunRecord> {
  return checkedFile('RunRecord', await readJsonFile(path, 'results file'), path);
}

/**
 * The text of a results.json about to be written, checked as a reader will
 * parse it against the published schema (fixtures/results.schema.json): a
 * field the schema does not describe, or a number JSON turns into null, is
 * the tool's own bug, said before any reader meets it.
 */
export function checkedResultsText(text: string): string {
  const problems = resultsJsonProblems(JSON.parse(text));
  if (problems.length > 0)
    throw new Error(oneLine('results.json does not match fixtures/results.schema.json', problems));
  return text;
}
