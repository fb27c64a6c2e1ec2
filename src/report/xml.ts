import { printable } from './printable.ts';

/** XML 1.0 character data: escaped, with characters XML cannot carry made visible instead (see printable.ts). */
export function xmlText(text: string): string {
  return printable(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values: parsers normalise raw tabs and line breaks to spaces, so those are written as references. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** CDATA cannot contain "]]>"; it is split across two sections. */
export function cdata(text: string): string {
  return `<![CDATA[${printable(text).replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}
