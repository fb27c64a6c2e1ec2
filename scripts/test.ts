/**
 * `npm test` after the build: the type checker, the linter and the formatter
 * run beside the project's tests. The tests wait on sockets and timers about
 * half the time (about one core busy of two), and each static check is one
 * process on one core, so side by side the whole takes about as long as the
 * tests alone instead of their sum. The tests' output streams as it comes;
 * each check's output is printed whole when it ends (never interleaved), and
 * the exit code is the first failure's.
 */
import { spawn } from 'node:child_process';

const CHECKS: readonly string[] = ['typecheck', 'lint', 'format:check'];

/** Runs an npm script; `buffered` keeps its output for the end, otherwise it streams. */
function run(script: string, buffered: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    // npm finds each tool in node_modules/.bin on every platform, as `npm run` does.
    const child = spawn('npm', ['run', '--silent', script], {
      shell: process.platform === 'win32',
      stdio: buffered ? 'pipe' : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (e) => resolve({ code: 1, output: `${output}${e.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const checks = CHECKS.map(async (script) => {
  const { code, output } = await run(script, true);
  return { script, code, output };
});
const tests = run('test:unit', false);
const codes: number[] = [(await tests).code];
for (const { script, code, output } of await Promise.all(checks)) {
  process.stdout.write(`${code === 0 ? 'passed' : 'FAILED'}: npm run ${script}\n${code === 0 ? '' : output}`);
  codes.push(code);
}
process.exitCode = codes.find((code) => code !== 0) ?? 0;
