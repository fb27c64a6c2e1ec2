import { checkedFile, type FileType } from '../schemas/files.ts';
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
