import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { HmacSha256 } from '../../src/reference-server/hmac.ts';

describe('HmacSha256', () => {
  test('gives the digests createHmac gives, for any key and message', () => {
    const messages = ['', 'a', 'eyJxIjoiYWJjIn0', 'é ✓ 𝄞 \u0000', 'x'.repeat(63), 'y'.repeat(64), 'z'.repeat(5000)];
    for (const keyLength of [0, 1, 32, 64, 65, 200]) {
      const key = randomBytes(keyLength);
      const mac = new HmacSha256(key);
      // Long messages first, then short ones: the grown buffer must not leak bytes into later digests.
      for (const message of [...messages].reverse().concat(messages)) {
        expect(mac.base64url(message), `key ${keyLength}, message ${message.length}`).toBe(
          createHmac('sha256', key).update(message).digest('base64url'),
        );
      }
    }
  });
});
