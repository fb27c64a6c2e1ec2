/**
 * Secrets never leave the process: every string that reaches a report, a log
 * or an error message passes through a Redactor that knows every credential of
 * the run and replaces it with the environment-variable placeholder a user
 * would type instead.
 *
 * A key travels in more forms than the one typed: escaped inside a JSON string,
 * however many times (a server echoing it in an error body, a gateway wrapping
 * that body as a string field of its own, or any text the suite itself
 * serialises before redacting, such as the journal's lines), percent-encoded in
 * a URL or a form (a server echoing it in a Location or a link), in hex, and
 * inside base64 or base64url of any text that holds it (basic credentials,
 * `Bearer key`, a token). Each form is redacted.
 */
export class Redactor {
  private readonly secrets: Array<{ value: string; placeholder: string }> = [];
  /**
   * Any form of any secret, in two alternations: a text is scanned twice at
   * most to learn whether it holds one (every request and response body passes
   * here, and a scan per form cost more than the rest of recording an
   * exchange). The base64 middles have an alternation of their own: mixed with
   * the other forms, their varied first characters make the one scan of a 1 MB
   * body twice as slow as the two scans apart. Only a text that holds a form
   * is redacted form by form, as below.
   */
  private anyForm: RegExp[] = [];
  private readonly base64 = new Set<string>();

  add(value: string | undefined, placeholder: string): void {
    if (!value || value.length < 4) return;
    const forms = formsOf(value);
    const known = new Set(this.secrets.map((s) => s.value));
    for (const form of [...forms.text, ...forms.base64]) {
      if (known.has(form)) continue;
      known.add(form);
      this.secrets.push({ value: form, placeholder });
    }
    for (const form of forms.base64) this.base64.add(form);
    // Longest first: a form that contains another is replaced whole.
    this.secrets.sort((a, b) => b.value.length - a.value.length);
    const text = this.secrets.map((s) => s.value).filter((f) => !this.base64.has(f));
    this.anyForm = [alternation(text), ...(this.base64.size > 0 ? [alternation([...this.base64])] : [])];
  }

  redact(text: string): string {
    if (!this.anyForm.some((form) => form.test(text))) return text;
    let out = text;
    for (const { value, placeholder } of this.secrets) {
      if (!out.includes(value)) continue;
      out = this.base64.has(value) ? replaceBase64Runs(out, value, placeholder) : out.split(value).join(placeholder);
    }
    return out;
  }

  /**
   * A JSON value (cloned) with every string in it, keys included, redacted.
   * Redacting its JSON text instead would miss a key a server escaped inside
   * a body the check keeps as a string: serialised, it is escaped once more.
   */
  redactValue<T>(value: T): T {
    if (value === undefined) return value;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.redact(v);
      if (Array.isArray(v)) return v.map(walk);
      if (typeof v === 'object' && v !== null) {
        return Object.fromEntries(Object.entries(v).map(([k, inner]) => [this.redact(k), walk(inner)]));
      }
      return v;
    };
    return walk(JSON.parse(JSON.stringify(value))) as T;
  }
}

const BASE64_CHAR = /[A-Za-z0-9+/_=-]/;

/**
 * Replaces each run of base64 characters that holds `middle` whole: the
 * characters beside the middle carry bits of the key too, and the run is one
 * token (a credential, an encoded body) that means nothing without them.
 */
function replaceBase64Runs(text: string, middle: string, placeholder: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(middle); at >= 0; at = text.indexOf(middle, from)) {
    let start = at;
    while (start > from && BASE64_CHAR.test(text.charAt(start - 1))) start -= 1;
    let end = at + middle.length;
    while (end < text.length && BASE64_CHAR.test(text.charAt(end))) end += 1;
    out += text.slice(from, start) + placeholder;
    from = end;
  }
  return out + text.slice(from);
}

function alternation(forms: readonly string[]): RegExp {
  return new RegExp(forms.map((f) => f.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('|'));
}

/**
 * The forms a key may take in text that reached the suite or that it wrote:
 * escaped or encoded whole (each of these holds the key's own encoding as a
 * substring wherever the key sits in a longer text), and the stable middle of
 * its base64 and base64url encodings at each of the three alignments (see
 * base64Middles).
 */
function formsOf(value: string): { text: string[]; base64: string[] } {
  const component = encodeURIComponent(value);
  const uri = encodeURI(value);
  // application/x-www-form-urlencoded (URLSearchParams): more characters escaped, space as +.
  const form = new URLSearchParams({ k: value }).toString().slice(2);
  const hex = Buffer.from(value).toString('hex');
  const percents = [component, component.replace(/%20/g, '+'), uri, form].flatMap((p) => [
    p,
    p.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  ]);
  const middles = base64Middles(Buffer.from(value));
  const base64 = [...middles, ...middles.map((m) => m.replace(/\+/g, '-').replace(/\//g, '_'))];
  const plain = [value, ...percents, hex, hex.toUpperCase()];
  // Each form escaped inside a JSON string, and that string inside another (a gateway wrapping an upstream
  // error as a string field), up to JSON_DEPTH times: the escaped base64 middles are plain text forms (a `\/`
  // breaks the base64 run the middle would be found in).
  return { text: [...plain, ...jsonEscaped([...plain, ...base64])], base64 };
}

/** How many times a key may have been escaped inside JSON strings and still be found. */
export const JSON_DEPTH = 4;

/** The ways serialisers escape a JSON string: as JavaScript writes it, with `/` escaped too, ASCII only. */
const JSON_STYLES: ReadonlyArray<(text: string) => string> = [
  (text) => JSON.stringify(text).slice(1, -1),
  (text) => JSON.stringify(text).slice(1, -1).replace(/\//g, '\\/'),
  (text) =>
    JSON.stringify(text)
      .slice(1, -1)
      .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
];

/**
 * `forms` escaped inside a JSON string 1 to JSON_DEPTH times, in any mix of
 * the styles (one serialiser wrapping what another wrote). Only the forms
 * escaping changes are kept: a key of letters, digits, `-` and `_` has none,
 * and each character escaping does change doubles what is kept at most.
 */
function jsonEscaped(forms: readonly string[]): string[] {
  const out = new Set<string>();
  let level: ReadonlySet<string> = new Set(forms);
  for (let depth = 0; depth < JSON_DEPTH; depth++) {
    const next = new Set<string>();
    for (const form of level) for (const style of JSON_STYLES) next.add(style(form));
    for (const form of next) if (!forms.includes(form)) out.add(form);
    level = next;
  }
  return [...out];
}

/**
 * Base64 of a text that holds the key (`user:key`, `Bearer key`, a JSON body)
 * depends on where the key starts, modulo 3 bytes. For each of the three
 * offsets, the characters whose 6 bits all come from the key's bytes are the
 * same whatever surrounds the key: that run is searched for. Runs shorter
 * than 8 characters (keys of a few bytes) are left out: they would match
 * unrelated text.
 */
function base64Middles(bytes: Buffer): string[] {
  const out: string[] = [];
  for (const offset of [0, 1, 2]) {
    const padded = Buffer.alloc(Math.ceil((offset + bytes.length) / 3) * 3);
    bytes.copy(padded, offset);
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const middle = padded.toString('base64').slice(first, end);
    if (middle.length >= 8) out.push(middle);
  }
  return out;
}
