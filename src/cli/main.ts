// Each command's module is loaded when it runs, not at start: `--help` and `rules` never pay for the
// engine, the reference server or the report writers (start-up time is measured in the bench).
import { MAIN_HELP } from './help.ts';
import type { Output } from './run-command.ts';
import { closestName } from '../core/did-you-mean.ts';
import { UsageError } from '../core/errors.ts';
import { colourEnabled, cursorControlEnabled, painter } from './terminal.ts';

const COMMANDS: readonly string[] = [
  'run',
  'serve',
  'init',
  'rules',
  'compare',
  'merge',
  'expectations',
  'restore',
  'judge',
  'proxy',
  'verify',
  'help',
];

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
export async function main(argv: string[], io: Output = stdio, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (io === stdio) quietOnClosedPipe();
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return await (await import('./run-command.ts')).runCommand(rest, io, env);
      case 'serve':
        return await (await import('./serve-command.ts')).serveCommand(rest, io, untilSignal());
      case 'init':
        return await (await import('./init-command.ts')).initCommand(rest, io, env);
      case 'rules':
        return await (await import('./rules-command.ts')).rulesCommand(rest, io.out);
      case 'compare':
        return await (await import('./gate-commands.ts')).compareCommand(rest, io);
      case 'merge':
        return await (await import('./gate-commands.ts')).mergeCommand(rest, io);
      case 'expectations':
        return await (await import('./gate-commands.ts')).expectationsCommand(rest, io);
      case 'restore':
        return await (await import('./restore-command.ts')).restoreCommand(rest, io);
      case 'judge':
        return await (await import('./judge-command.ts')).judgeCommand(rest, io);
      case 'proxy':
        return await (
          await import('./proxy-command.ts')
        ).proxyCommand(rest, io, {
          stop: untilSignal(),
          onReportsAsked: (write) => {
            process.on('SIGUSR1', write);
            return () => process.off('SIGUSR1', write);
          },
        });
      case 'verify':
        return await (await import('./verify-command.ts')).verifyCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(MAIN_HELP);
        return command === undefined ? 2 : 0;
      default: {
        const near = closestName(command, COMMANDS);
        throw near
          ? new UsageError(`unknown command ${JSON.stringify(command)} (did you mean ${near}?)`)
          : new UsageError(`unknown command ${JSON.stringify(command)}; the commands: ${COMMANDS.join(', ')}`);
      }
    }
  } catch (e) {
    // A profile that does not load is the user's to fix, like a usage error (ProfileError, told by name
    // so this module need not load the profile validator).
    if (e instanceof UsageError || (e instanceof Error && e.name === 'ProfileError')) {
      io.err(`error: ${e.message}`);
      // Only a flag used wrongly is helped by --help; a profile or target problem is its one line.
      if (e instanceof UsageError && e.seeHelp)
        io.err(`see \`directory-conformance ${COMMANDS.includes(command ?? '') ? `${command} ` : ''}--help\``);
      return 2;
    }
    io.err(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 2;
  }
}
