/**
 * Secrets never leave the process: every string that reaches a report, a log
 * or an error message passes through a Redactor that knows every credential of
 * the run and replaces it with the environment-variable placeholder a user
 * would type instead.
 *
 * A key travels in more forms than the one typed: inside base64 (basic
 * credentials), escaped inside a JSON string (a server echoing it in an
 * error body, or any text the suite itself serialises before redacting, such
 * as the journal's lines), and percent-encoded in a URL (a server echoing it
 * in a Location or a link). Each form is redacted.
 */
export class Redactor {
  private readonly secrets: Array<{ value: string; placeholder: string }> = [];
  /**
   * Any form of any secret, in one alternation: a text is scanned once to
   * learn whether it holds one (every request and response body passes here,
   * and a scan per form cost more than the rest of recording an exchange).
   * Only a text that does is redacted form by form, as below.
   */
  private anyForm: RegExp | undefined;

  add(value: string | undefined, placeholder: string): void {
    if (!value || value.length < 4) return;
    const known = new Set(this.secrets.map((s) => s.value));
    for (const form of formsOf(value)) {
      if (known.has(form)) continue;
      known.add(form);
      this.secrets.push({ value: form, placeholder });
    }
    // Longest first: a form that contains another is replaced whole.
    this.secrets.sort((a, b) => b.value.length - a.value.length);
    this.anyForm = new RegExp(this.secrets.map((s) => s.value.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('|'));
  }

  redact(text: string): string {
    if (this.anyForm === undefined || !this.anyForm.test(text)) return text;
    let out = text;
    for (const { value, placeholder } of this.secrets) {
      if (out.includes(value)) out = out.split(value).join(placeholder);
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

/** The forms a key may take in text that reached the suite or that it wrote. */
function formsOf(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const percent = encodeURIComponent(value);
  return [
    value,
    Buffer.from(`:${value}`).toString('base64'),
    // JSON as JavaScript writes it, with `/` escaped (as some serialisers do), and ASCII-only (\u escapes).
    json,
    json.replace(/\//g, '\\/'),
    json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    // Percent-encoded with upper- or lower-case hex digits, and as a form value (space as +).
    percent,
    percent.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    percent.replace(/%20/g, '+'),
  ];
}
