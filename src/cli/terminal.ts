/**
 * Terminal conventions: colour only on a terminal, never with NO_COLOR (any
 * non-empty value, https://no-color.org), always with FORCE_COLOR (unless it
 * is 0 or false); cursor control (the live progress line) only on a terminal
 * whose TERM is not dumb. Pipes, files and CI logs get plain text.
 */
export type Tone = 'pass' | 'fail' | 'warn' | 'dim';

export interface TerminalInfo {
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
}

export function colourEnabled({ isTTY, env }: TerminalInfo): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return !['0', 'false'].includes(env.FORCE_COLOR.toLowerCase());
  return isTTY && env.TERM !== 'dumb';
}

export function cursorControlEnabled({ isTTY, env }: TerminalInfo): boolean {
  return isTTY && env.TERM !== 'dumb';
}

const SGR: Record<Tone, number> = { pass: 32, fail: 31, warn: 33, dim: 2 };

export function painter(enabled: boolean): (text: string, tone: Tone) => string {
  return enabled ? (text, tone) => `\x1b[${SGR[tone]}m${text}\x1b[0m` : (text) => text;
}

/** The tone of a verdict or outcome word. */
export function toneOf(word: string): Tone | undefined {
  if (/^(PASS|CONFORMANT|OBSERVED)$/.test(word)) return 'pass';
  if (/^(FAIL|NOT CONFORMANT)$/.test(word)) return 'fail';
  if (/^(ERROR|INCONCLUSIVE|SKIP|NOT-TESTED)$/.test(word)) return 'warn';
  return undefined;
}
