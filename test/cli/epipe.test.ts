/** `directory-conformance rules | head`: the reader closing early ends the output quietly. */
import { spawn } from 'node:child_process';
import { expect, test } from 'vitest';

test('a closed stdout pipe ends the command with no error', async () => {
  const child = spawn(process.execPath, ['bin/directory-conformance.mjs', 'rules'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Like `head -1`: read the first chunk, then close the pipe.
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect(stderr).not.toContain('EPIPE');
  expect(code).toBe(0);
});
