/**
 * Runs a replay command in a real shell with `curl` replaced by a function
 * that writes each argument it receives (and its standard input, for
 * `--data-binary @-`) to a file, byte for byte. Tests then compare what curl
 * would have been given with what the suite sent. Nothing touches the network.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const FAKE_CURL = `curl() { i=0; for a in "$@"; do i=$((i+1)); printf '%s' "$a" > "$CAPTURE/arg-$i"; done; for a in "$@"; do if [ "$a" = "@-" ]; then cat > "$CAPTURE/stdin"; fi; done; }`;

export interface CurlCall {
  args: Buffer[];
  stdin: Buffer | undefined;
}

/**
 * posix: the command as a script of `/bin/sh`. interactive-bash: the command
 * typed (pasted) into an interactive bash, where "!" inside double quotes
 * expands history.
 */
export type ShellMode = 'posix' | 'interactive-bash';

export const BASH = '/bin/bash';
export const hasBash = existsSync(BASH);

export async function captureCurl(
  command: string,
  env: Record<string, string>,
  mode: ShellMode = 'posix',
): Promise<CurlCall> {
  const capture = await mkdtemp(join(tmpdir(), 'dc-curl-'));
  try {
    const fullEnv = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: capture,
      HISTFILE: '/dev/null',
      LC_ALL: 'C.UTF-8',
      CAPTURE: capture,
      ...env,
    };
    const script = `${FAKE_CURL}\n${command}\n`;
    if (mode === 'posix') {
      await run('/bin/sh', ['-c', script], { env: fullEnv });
    } else {
      await new Promise<void>((resolve, reject) => {
        const child = execFile(BASH, ['--norc', '--noprofile', '-i'], { env: fullEnv }, (error) =>
          error ? reject(error) : resolve(),
        );
        child.stdin?.end(`${script}exit\n`);
      });
    }
    const files = await readdir(capture);
    const argFiles = files.filter((f) => f.startsWith('arg-')).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)));
    const args = await Promise.all(argFiles.map((f) => readFile(join(capture, f))));
    const stdin = files.includes('stdin') ? await readFile(join(capture, 'stdin')) : undefined;
    return { args, stdin };
  } finally {
    await rm(capture, { recursive: true, force: true });
  }
}
