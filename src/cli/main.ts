import { MAIN_HELP } from './help.ts';
import { compareCommand, expectationsCommand, mergeCommand } from './gate-commands.ts';
import { rulesCommand } from './rules-command.ts';
import { runCommand, type Output } from './run-command.ts';
import { serveCommand } from './serve-command.ts';
import { restoreCommand } from './restore-command.ts';
import { UsageError } from '../core/errors.ts';
import { colourEnabled, cursorControlEnabled, painter } from './terminal.ts';
import { ProfileError } from '../target/load-profile.ts';

let liveShown = false;
const terminal = { isTTY: process.stdout.isTTY === true, env: process.env };
const paint = painter(colourEnabled(terminal));
const stdio: Output = {
  out: (line) => {
    if (liveShown) process.stdout.write('\r\x1b[2K');
    liveShown = false;
    process.stdout.write(`${line}\n`);
  },
  err: (line) => process.stderr.write(`${line}\n`),
  paint,
  // Cursor control only on a terminal that takes it: pipes and CI logs get plain lines.
  ...(cursorControlEnabled(terminal)
    ? {
        live: (text: string) => {
          process.stdout.write(`\r\x1b[2K${text.slice(0, (process.stdout.columns || 100) - 1)}`);
          liveShown = text !== '';
        },
      }
    : {}),
};

/** `directory-conformance rules | head`: a reader that stops early ends the output, not in a crash. */
function quietOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** Runs one command and returns its exit code (see exit-codes.ts): 0 conformant, 1 not conformant, 2 usage/configuration, 3 inconclusive. */
export async function main(argv: string[], io: Output = stdio): Promise<number> {
  if (io === stdio) quietOnClosedPipe();
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return await runCommand(rest, io);
      case 'serve':
        return await serveCommand(rest, io, untilSignal());
      case 'rules':
        return await rulesCommand(rest, io.out);
      case 'compare':
        return await compareCommand(rest, io);
      case 'merge':
        return await mergeCommand(rest, io);
      case 'expectations':
        return await expectationsCommand(rest, io);
      case 'restore':
        return await restoreCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(MAIN_HELP);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof ProfileError) {
      io.err(`error: ${e.message}`);
      // Only a flag used wrongly is helped by --help; a profile or target problem is its one line.
      if (e instanceof UsageError && e.seeHelp) io.err('see `directory-conformance --help`');
      return 2;
    }
    io.err(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 2;
  }
}
