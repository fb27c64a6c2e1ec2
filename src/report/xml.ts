/** XML 1.0 text: escaped, with characters XML cannot carry removed (server text is hostile). */
// eslint-disable-next-line no-control-regex
const ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlText(text: string): string {
  return text.replace(ILLEGAL, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}

/** CDATA cannot contain "]]>"; split it across sections. */
export function cdata(text: string): string {
  return `<![CDATA[${text.replace(ILLEGAL, '\uFFFD').replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}
