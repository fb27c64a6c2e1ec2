/**
 * The write-ahead undo journal of a run: one JSON line per event, appended and
 * flushed to disk before the change it announces is sent, so a run killed at
 * any point leaves what `directory-conformance restore` needs to put the
 * target back. Lines are redacted like every other output.
 */
import { open, readFile, type FileHandle } from 'node:fs/promises';
import type { Redactor } from '../client/redact.ts';
import { UsageError } from '../core/errors.ts';
import type { UndoJournal } from '../rules/types.ts';
import { checkedFile, type FileType } from '../schemas/files.ts';

export type JournalLine =
  | { event: 'run'; at: string; baseUrl: string; serviceVersion: string }
  | { event: 'changing'; at: string; ruleId: string; resourceId: string; state: unknown; undo: readonly unknown[] }
  | { event: 'restored'; at: string; ruleId: string; resourceId: string }
  | { event: 'irreversible'; at: string; ruleId: string; resourceId: string; state: unknown };

export class FileJournal implements UndoJournal {
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
    private readonly redactor: Redactor,
  ) {}

  static async create(
    path: string,
    redactor: Redactor,
    run: { baseUrl: string; serviceVersion: string },
  ): Promise<FileJournal> {
    const journal = new FileJournal(path, await open(path, 'w'), redactor);
    await journal.append({ event: 'run', at: now(), baseUrl: run.baseUrl, serviceVersion: run.serviceVersion });
    return journal;
  }

  changing(entry: { ruleId: string; resourceId: string; state: unknown; undo: readonly unknown[] }): Promise<void> {
    return this.append({ event: 'changing', at: now(), ...entry });
  }

  restored(entry: { ruleId: string; resourceId: string }): Promise<void> {
    return this.append({ event: 'restored', at: now(), ...entry });
  }

  irreversible(entry: { ruleId: string; resourceId: string; state: unknown }): Promise<void> {
    return this.append({ event: 'irreversible', at: now(), ...entry });
  }

  close(): Promise<void> {
    return this.chain.then(() => this.file.close());
  }

  /** Lines are written one after another, each flushed before its promise resolves. */
  private append(line: JournalLine): Promise<void> {
    const text = `${JSON.stringify(this.redactor.redactValue(line))}\n`;
    const next = this.chain.then(async () => {
      await this.file.write(text);
      await this.file.datasync();
    });
    this.chain = next.catch(() => undefined);
    return next;
  }
}

function now(): string {
  return new Date().toISOString();
}

/** A journal line as read back: checked against its schema, the state of a change typed as a resource's. */
export type ReadJournalLine = FileType<'JournalLine'>;

/**
 * The lines of a journal, each checked against its schema (src/schemas/files.ts);
 * a last line cut off by a crash is left out. A line that is not JSON or not
 * a journal line is a usage error naming the file, the line and the problem.
 */
export async function readJournal(path: string): Promise<ReadJournalLine[]> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const out: ReadJournalLine[] = [];
  for (const [i, line] of lines.entries()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (e) {
      if (i === lines.length - 1) break;
      throw new UsageError(`${path}: line ${i + 1} is not JSON: ${e instanceof Error ? e.message : String(e)}`, {
        seeHelp: false,
      });
    }
    out.push(checkedFile('JournalLine', parsed, `${path}: line ${i + 1}`));
  }
  return out;
}

type PendingChange = Extract<ReadJournalLine, { event: 'changing' }>;

/** Changes the journal announces that no later line says were put back, latest per resource first seen. */
export function pendingChanges(lines: readonly ReadJournalLine[]): PendingChange[] {
  const pending = new Map<string, PendingChange>();
  for (const line of lines) {
    if (line.event === 'changing' && !pending.has(line.resourceId)) pending.set(line.resourceId, line);
    if (line.event === 'restored') pending.delete(line.resourceId);
  }
  return [...pending.values()];
}
