/**
 * What `run --history` and `merge --history` print of a run's history: a line
 * per history file skipped, then the rules whose verdict changed since the
 * last run, the unstable ones marked. Its own module: `merge` prints it too
 * without loading the run command.
 */
import type { RunHistory } from '../gate/history.ts';
import { toneOf, type Tone } from './terminal.ts';

/** The part of a command's output the history is printed to (the run command's Output has it). */
interface Output {
  out(line: string): void;
  err(line: string): void;
  paint?(text: string, tone: Tone): string;
}

function word(io: Output, text: string): string {
  const tone = toneOf(text);
  return tone && io.paint ? io.paint(text, tone) : text;
}

/** The rules whose verdict changed since the last run, the unstable ones, and a line per history file skipped. */
export function printHistory(history: RunHistory, io: Output): void {
  for (const warning of history.warnings) io.err(warning);
  if (history.earlierRuns === 0) {
    io.out(`history: the first run kept in ${history.dir}`);
    return;
  }
  const changes = history.changed.length;
  io.out(
    `history: ${changes === 0 ? 'no rule changed its verdict' : `${changes} rule${changes === 1 ? '' : 's'} changed ${changes === 1 ? 'its verdict' : 'verdict'}`} since the last run (${history.earlierRuns} earlier run${history.earlierRuns === 1 ? '' : 's'} in ${history.dir})`,
  );
  for (const c of history.changed) {
    const unstable = history.rules.get(c.ruleId)?.unstable === true ? ' (unstable)' : '';
    io.out(`  ${word(io, c.from)} → ${word(io, c.to)} ${c.ruleId}${unstable}`);
  }
}
