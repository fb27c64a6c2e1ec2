/**
 * HMAC-SHA256 (RFC 2104) as two one-shot hashes over keys padded once.
 * `createHmac` builds a native object per call (key import, context, a
 * wrapper the collector must finalise); a page token is signed for every page
 * and checked for every page after the first, and the reference server's
 * benchmark served measurably more pages without that object. The digests are those `createHmac` gives
 * (test/reference-server/hmac.test.ts).
 */
import { hash } from 'node:crypto';

const BLOCK = 64;
const DIGEST = 32;

export class HmacSha256 {
  /** key ⊕ ipad, then room for the message. */
  private inner: Buffer;
  /** key ⊕ opad, then the inner digest. */
  private readonly outer = Buffer.alloc(BLOCK + DIGEST);

  constructor(key: Buffer) {
    const padded = Buffer.alloc(BLOCK);
    (key.length > BLOCK ? hash('sha256', key, 'buffer') : key).copy(padded);
    this.inner = Buffer.alloc(BLOCK + 256);
    for (let i = 0; i < BLOCK; i++) {
      const byte = padded[i] ?? 0;
      this.inner[i] = byte ^ 0x36;
      this.outer[i] = byte ^ 0x5c;
    }
  }

  /** The MAC of the UTF-8 bytes of `message`, in base64url. */
  base64url(message: string): string {
    const length = Buffer.byteLength(message);
    if (BLOCK + length > this.inner.length) {
      const grown = Buffer.alloc(2 * (BLOCK + length));
      this.inner.copy(grown, 0, 0, BLOCK);
      this.inner = grown;
    }
    this.inner.write(message, BLOCK, 'utf8');
    // The inner digest as a 'binary' (latin1) string, one character per byte, rather than a Buffer: no
    // ArrayBuffer to allocate and collect for every MAC.
    this.outer.write(hash('sha256', this.inner.subarray(0, BLOCK + length), 'binary'), BLOCK, 'latin1');
    return hash('sha256', this.outer, 'base64url');
  }
}
