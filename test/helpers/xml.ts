/**
 * A small XML well-formedness check for the reporter tests: tags balance,
 * attributes are quoted, entities are known, no raw "<" or "&" in text.
 */
export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const token =
    /<!\[CDATA\[[\s\S]*?\]\]>|<\/?([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/g;
  let m: RegExpExecArray | null;
  while ((m = token.exec(body))) {
    const t = m[0];
    if (t.startsWith('<![CDATA[')) continue;
    if (t === '<') problems.push(`raw "<" at ${m.index}`);
    else if (t.startsWith('&')) problems.push(`unknown entity at ${m.index}`);
    else if (t.startsWith('</')) {
      if (stack.pop() !== m[1]) problems.push(`unbalanced </${m[1]}> at ${m.index}`);
    } else if (m[3] !== '/') stack.push(m[1]!);
  }
  if (stack.length > 0) problems.push(`unclosed ${stack.join(', ')}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml)) problems.push('characters XML 1.0 cannot carry');
  return problems;
}
