/**
 * Secrets never leave the process: every string that reaches a report, a log
 * or an error message passes through a Redactor that knows every credential of
 * the run and replaces it with the environment-variable placeholder a user
 * would type instead.
 */
export class Redactor {
  private readonly secrets: Array<{ value: string; placeholder: string }> = [];

  add(value: string | undefined, placeholder: string): void {
    if (!value || value.length < 4) return;
    this.secrets.push({ value, placeholder });
    // Basic credentials carry the key inside base64; redact that form too.
    this.secrets.push({ value: Buffer.from(`:${value}`).toString('base64'), placeholder });
    this.secrets.sort((a, b) => b.value.length - a.value.length);
  }

  redact(text: string): string {
    let out = text;
    for (const { value, placeholder } of this.secrets) {
      if (out.includes(value)) out = out.split(value).join(placeholder);
    }
    return out;
  }
}
