/**
 * A self-signed TLS certificate for 127.0.0.1, made with node:crypto alone
 * (no openssl on the machine needed): a P-256 key, and an X.509 v3
 * certificate written in DER by hand, signed with ECDSA-SHA256.
 */
import { generateKeyPairSync, sign } from 'node:crypto';

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const int = (n: number): Buffer => tlv(0x02, Buffer.from([n]));
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bits = (b: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));
const TRUE = tlv(0x01, Buffer.from([0xff]));

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const n of rest) {
    const groups = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) groups.unshift((v & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(d: Date): Buffer {
  const text = d
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .slice(2);
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

/** A certificate and its key, PEM, for a server on 127.0.0.1 (also valid as its own CA). */
export function selfSignedCertificate(commonName = 'directory-conformance test'): { cert: string; key: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const algorithm = seq(oid('1.2.840.10045.4.3.2'));
  const name = seq(set(seq(oid('2.5.4.3'), utf8(commonName))));
  const now = Date.now();
  const extensions = tlv(
    0xa3,
    seq(
      seq(oid('2.5.29.19'), TRUE, octets(seq(TRUE))),
      // subjectAltName: iPAddress 127.0.0.1, and dNSName localhost.
      seq(
        oid('2.5.29.17'),
        octets(seq(tlv(0x87, Buffer.from([127, 0, 0, 1])), tlv(0x82, Buffer.from('localhost', 'ascii')))),
      ),
    ),
  );
  const tbs = seq(
    tlv(0xa0, int(2)),
    int(1),
    algorithm,
    name,
    seq(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const der = seq(tbs, algorithm, bits(sign('sha256', tbs, privateKey)));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
