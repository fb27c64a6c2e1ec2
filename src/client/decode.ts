/**
 * What the wire does with an answer beyond gathering it: undoing the content
 * codings the client asked for (`Accept-Encoding: gzip, deflate, br`), with
 * the body cap as the bound on the decoded size, and telling a JSON body the
 * connection's close cut short from one the server sent whole.
 */
import { brotliDecompress, gunzip, inflate, inflateRaw, type InputType, type ZlibOptions } from 'node:zlib';
import { HarnessError } from '../core/errors.ts';

/** What the client asks for: every coding it can undo. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

type Decoder = (input: InputType, options: ZlibOptions, done: (error: Error | null, result: Buffer) => void) => void;

/** deflate is zlib-wrapped by the RFC; some servers send it raw, so a failed inflate is tried raw. */
const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: gunzip,
  'x-gzip': gunzip,
  deflate: inflate,
  br: brotliDecompress,
};

/**
 * The body with its content codings undone, last applied first. A decoded
 * body over `maxBytes` is a harness fault, as a large body on the wire is:
 * a small answer that inflates to gigabytes (a bomb) is stopped at the cap.
 * An encoded body that ends early is cut short; one that does not decode is
 * a corrupt answer. Neither is the server's verdict to bear.
 */
export async function decodeBody(bytes: Buffer, header: string, maxBytes: number, operation: string): Promise<Buffer> {
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let body = bytes;
  for (const coding of codings.reverse()) {
    const decoder = DECODERS[coding];
    if (decoder === undefined)
      throw new HarnessError(
        'DC_ERR_DECODE',
        `${operation}: the answer is encoded with ${JSON.stringify(coding)}, which the client did not ask for (it asks for ${ACCEPT_ENCODING})`,
      );
    body = await decodeOne(decoder, coding, body, maxBytes, operation);
  }
  return body;
}

async function decodeOne(
  decoder: Decoder,
  coding: string,
  input: Buffer,
  maxBytes: number,
  operation: string,
): Promise<Buffer> {
  try {
    return await run(decoder, input, maxBytes);
  } catch (error) {
    if (coding === 'deflate' && zlibCode(error) === 'Z_DATA_ERROR') {
      try {
        return await run(inflateRaw, input, maxBytes);
      } catch (raw) {
        throw faultOf(raw, coding, maxBytes, operation);
      }
    }
    throw faultOf(error, coding, maxBytes, operation);
  }
}

function run(decoder: Decoder, input: Buffer, maxOutputLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    decoder(input, { maxOutputLength }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function faultOf(error: unknown, coding: string, maxBytes: number, operation: string): HarnessError {
  const code = zlibCode(error);
  if (code === 'ERR_BUFFER_TOO_LARGE')
    return new HarnessError(
      'DC_ERR_BODY_TOO_LARGE',
      `${operation}: response body exceeds ${maxBytes} bytes once decoded (${coding})`,
    );
  const message = error instanceof Error ? error.message : String(error);
  // zlib's "unexpected end of file": the encoded stream stopped before its end.
  if (code === 'Z_BUF_ERROR')
    return new HarnessError('DC_ERR_BODY_CUT', `${operation}: the ${coding} body was cut short (${message})`);
  return new HarnessError('DC_ERR_DECODE', `${operation}: the ${coding} body does not decode (${code ?? message})`);
}

function zlibCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * True for a body that starts as JSON and stops before its end: JSON.parse
 * fails at the last character (V8 says "Unexpected end of JSON input", or
 * names the position just past the text). Broken JSON the server sent whole
 * fails earlier, and stays the server's.
 */
export function cutShortJson(text: string): boolean {
  const start = /\S/.exec(text);
  if (start === null || (start[0] !== '{' && start[0] !== '[')) return false;
  try {
    JSON.parse(text);
    return false;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/end of JSON input/i.test(message)) return true;
    const position = /at position (\d+)/.exec(message);
    return position !== null && Number(position[1]) >= text.trimEnd().length;
  }
}
