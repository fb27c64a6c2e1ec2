import type { RuleResult } from '../core/types.ts';
import { UsageError } from '../core/errors.ts';
import { readJsonFile } from './read-json-file.ts';

export interface ResultsFile {
  schemaVersion: number;
  target: { baseUrl: string; serviceVersion: string };
  startedAt: string;
  results: RuleResult[];
}

/** A results.json written by `run` (see src/report/json.ts). */
export async function readResults(path: string): Promise<ResultsFile> {
  const data = await readJsonFile(path, 'results file');
  const file = data as Partial<ResultsFile>;
  if (file.schemaVersion !== 1 || !Array.isArray(file.results))
    throw new UsageError(`${path} is not a results.json of this tool (schemaVersion 1)`);
  return file as ResultsFile;
}
