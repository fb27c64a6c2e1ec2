/**
 * Reads an HTML page the way a browser's tokenizer splits it into tags (the
 * parts that matter for injection: start and end tags, attributes, comments,
 * and the raw text of <script> and <style>, which runs to the first matching
 * end tag whatever it contains). Enough to prove that server text created no
 * element, attribute or script; it does not build a DOM.
 */
export interface HtmlTag {
  name: string;
  end: boolean;
  attributes: Record<string, string>;
  offset: number;
}

export interface HtmlScan {
  tags: HtmlTag[];
  /** Contents of raw-text elements (script, style), in order. */
  rawText: Array<{ element: string; content: string }>;
  /** Text outside tags, with character references decoded. */
  text: string;
}

const RAW_TEXT = new Set(['script', 'style']);
const ESCAPABLE_RAW_TEXT = new Set(['title', 'textarea']);
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|([A-Za-z]+));/g,
    (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (dec !== undefined) return String.fromCodePoint(Number.parseInt(dec, 10));
      if (hex !== undefined) return String.fromCodePoint(Number.parseInt(hex, 16));
      return NAMED[name!] ?? whole;
    },
  );
}

export function scanHtml(html: string): HtmlScan {
  const tags: HtmlTag[] = [];
  const rawText: HtmlScan['rawText'] = [];
  let text = '';
  let pos = 0;
  // ASCII only, as HTML matches tag names: a full toLowerCase changes lengths ('İ' becomes two
  // code units) and would shift every index taken from it.
  const lower = html.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  while (pos < html.length) {
    const lt = html.indexOf('<', pos);
    if (lt < 0) {
      text += decodeEntities(html.slice(pos));
      break;
    }
    text += decodeEntities(html.slice(pos, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      pos = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html.startsWith('<!', lt) || html.startsWith('<?', lt)) {
      const end = html.indexOf('>', lt);
      pos = end < 0 ? html.length : end + 1;
      continue;
    }
    const tag = /^<(\/?)([A-Za-z][^\s/>]*)/.exec(html.slice(lt, lt + 256));
    if (!tag) {
      // A "<" that starts no tag is text to a browser.
      text += '<';
      pos = lt + 1;
      continue;
    }
    const name = tag[2]!.toLowerCase();
    const attributes: Record<string, string> = {};
    let i = lt + tag[0].length;
    const attr = /[\s/]*(?:([^\s/>=][^\s/>=]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?)?/y;
    for (;;) {
      attr.lastIndex = i;
      const m = attr.exec(html)!;
      i += m[0].length;
      if (m[1] === undefined) break;
      const attrName = m[1].toLowerCase();
      // A browser keeps the first of two attributes with one name.
      if (!Object.hasOwn(attributes, attrName)) attributes[attrName] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
    }
    const close = html.indexOf('>', i);
    pos = close < 0 ? html.length : close + 1;
    tags.push({ name, end: tag[1] === '/', attributes, offset: lt });
    if (tag[1] !== '/' && (RAW_TEXT.has(name) || ESCAPABLE_RAW_TEXT.has(name))) {
      const endTag = lower.indexOf(`</${name}`, pos);
      const content = html.slice(pos, endTag < 0 ? html.length : endTag);
      if (RAW_TEXT.has(name)) rawText.push({ element: name, content });
      else text += decodeEntities(content);
      pos = endTag < 0 ? html.length : endTag;
    }
  }
  return { tags, rawText, text };
}

/** Start-tag names in document order: the shape of a page, whatever its text. */
export function shapeOfHtml(html: string): string[] {
  return scanHtml(html).tags.map((t) => (t.end ? `/${t.name}` : t.name));
}
