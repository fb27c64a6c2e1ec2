/**
 * A small, strict XML 1.0 parser for the reporter tests (no package needed):
 * it rejects what a real parser rejects in the output of a reporter
 * (unbalanced or crossed tags, a second root, raw "<" or "&", unknown
 * entities, duplicate or unquoted attributes, "]]>" in text, "--" in a
 * comment, characters outside XML's Char production) and returns the tree so
 * tests can check structure on decoded text. No DTDs: reports have none.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | { text: string };

export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'XmlSyntaxError';
  }
}

const NAME = /[A-Za-z_:][A-Za-z0-9_:.-]*/y;
const SPACE = /[ \t\r\n]+/y;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

class Parser {
  private pos = 0;
  constructor(private readonly src: string) {}

  document(): XmlElement {
    this.checkCharacters();
    if (this.src.startsWith('<?xml')) this.declaration();
    this.misc();
    if (!this.src.startsWith('<', this.pos)) this.fail('expected the root element');
    const root = this.element();
    this.misc();
    if (this.pos !== this.src.length) this.fail('content after the root element');
    return root;
  }

  private fail(message: string): never {
    throw new XmlSyntaxError(message, this.pos);
  }

  private checkCharacters(): void {
    let offset = 0;
    for (const ch of this.src) {
      // A lone surrogate comes out of the iterator as one code unit in D800–DFFF, which is not a Char.
      if (!isXmlChar(ch.codePointAt(0)!))
        throw new XmlSyntaxError(
          `character U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML 1.0`,
          offset,
        );
      offset += ch.length;
    }
  }

  private declaration(): void {
    const end = this.src.indexOf('?>');
    if (end < 0) this.fail('unterminated XML declaration');
    const decl = this.src.slice(0, end + 2);
    if (
      !/^<\?xml version="1\.[0-9]"(?: encoding="[A-Za-z][A-Za-z0-9._-]*")?(?: standalone="(?:yes|no)")? ?\?>$/.test(
        decl,
      )
    )
      this.fail('malformed XML declaration');
    this.pos = end + 2;
  }

  private name(): string {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.src);
    if (!m) this.fail('expected a name');
    this.pos += m[0].length;
    return m[0];
  }

  private space(): boolean {
    SPACE.lastIndex = this.pos;
    const m = SPACE.exec(this.src);
    if (m) this.pos += m[0].length;
    return m !== null;
  }

  private misc(): void {
    for (;;) {
      this.space();
      if (this.src.startsWith('<!--', this.pos)) this.comment();
      else if (this.src.startsWith('<?', this.pos)) this.instruction();
      else return;
    }
  }

  private comment(): void {
    const end = this.src.indexOf('-->', this.pos + 4);
    if (end < 0) this.fail('unterminated comment');
    const body = this.src.slice(this.pos + 4, end);
    if (body.includes('--') || body.endsWith('-')) this.fail('"--" inside a comment');
    this.pos = end + 3;
  }

  private instruction(): void {
    this.pos += 2;
    if (this.name().toLowerCase() === 'xml') this.fail('XML declaration not at the start');
    const end = this.src.indexOf('?>', this.pos);
    if (end < 0) this.fail('unterminated processing instruction');
    this.pos = end + 2;
  }

  /** Decodes the reference at this.pos ("&…;"). */
  private reference(): string {
    const m = /&(?:([A-Za-z_][A-Za-z0-9._-]*)|#([0-9]+)|#x([0-9a-fA-F]+));/y;
    m.lastIndex = this.pos;
    const r = m.exec(this.src);
    if (!r) this.fail('"&" that starts no reference');
    let value: string;
    if (r[1] !== undefined) {
      const known = PREDEFINED[r[1]];
      if (known === undefined) this.fail(`unknown entity &${r[1]};`);
      value = known;
    } else {
      const cp = r[2] !== undefined ? Number.parseInt(r[2], 10) : Number.parseInt(r[3]!, 16);
      if (!isXmlChar(cp)) this.fail(`character reference to U+${cp.toString(16)} which is not a Char`);
      value = String.fromCodePoint(cp);
    }
    this.pos += r[0].length;
    return value;
  }

  private attributeValue(): string {
    const quote = this.src[this.pos];
    if (quote !== '"' && quote !== "'") this.fail('attribute value must be quoted');
    this.pos += 1;
    let value = '';
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) this.fail('unterminated attribute value');
      if (c === quote) {
        this.pos += 1;
        return value;
      }
      if (c === '<') this.fail('"<" inside an attribute value');
      if (c === '&') {
        value += this.reference();
        continue;
      }
      // Attribute-value normalisation: a raw white-space character reads as a space.
      value += c === '\t' || c === '\n' || c === '\r' ? ' ' : c;
      this.pos += 1;
    }
  }

  private element(): XmlElement {
    this.pos += 1; // "<"
    const name = this.name();
    const attributes: Record<string, string> = {};
    for (;;) {
      const spaced = this.space();
      if (this.src.startsWith('/>', this.pos)) {
        this.pos += 2;
        return { name, attributes, children: [] };
      }
      if (this.src[this.pos] === '>') {
        this.pos += 1;
        break;
      }
      if (!spaced) this.fail('attributes must be separated by white space');
      const attr = this.name();
      if (Object.hasOwn(attributes, attr)) this.fail(`duplicate attribute ${attr}`);
      this.space();
      if (this.src[this.pos] !== '=') this.fail(`attribute ${attr} without a value`);
      this.pos += 1;
      this.space();
      attributes[attr] = this.attributeValue();
    }
    const children = this.content();
    this.pos += 2; // "</"
    const closing = this.name();
    if (closing !== name) this.fail(`</${closing}> closes <${name}>`);
    this.space();
    if (this.src[this.pos] !== '>') this.fail('malformed end tag');
    this.pos += 1;
    return { name, attributes, children };
  }

  private content(): XmlNode[] {
    const nodes: XmlNode[] = [];
    let text = '';
    const flush = (): void => {
      if (text !== '') nodes.push({ text });
      text = '';
    };
    for (;;) {
      if (this.pos >= this.src.length) this.fail('unexpected end of document inside an element');
      if (this.src.startsWith('</', this.pos)) {
        flush();
        return nodes;
      }
      if (this.src.startsWith('<![CDATA[', this.pos)) {
        const end = this.src.indexOf(']]>', this.pos + 9);
        if (end < 0) this.fail('unterminated CDATA section');
        text += this.src.slice(this.pos + 9, end);
        this.pos = end + 3;
      } else if (this.src.startsWith('<!--', this.pos)) {
        this.comment();
      } else if (this.src.startsWith('<?', this.pos)) {
        this.instruction();
      } else if (this.src[this.pos] === '<') {
        flush();
        nodes.push(this.element());
      } else if (this.src[this.pos] === '&') {
        text += this.reference();
      } else {
        if (this.src.startsWith(']]>', this.pos)) this.fail('"]]>" in character data');
        text += this.src[this.pos];
        this.pos += 1;
      }
    }
  }
}

/** The root element; throws XmlSyntaxError at the first problem. */
export function parseXml(text: string): XmlElement {
  return new Parser(text).document();
}

/** [] for a well-formed document, else the first problem. */
export function wellFormedProblems(text: string): string[] {
  try {
    parseXml(text);
    return [];
  } catch (e) {
    if (e instanceof XmlSyntaxError) return [e.message];
    throw e;
  }
}

export function isElement(node: XmlNode): node is XmlElement {
  return 'name' in node;
}

export function childElements(el: XmlElement, name?: string): XmlElement[] {
  return el.children.filter(isElement).filter((c) => name === undefined || c.name === name);
}

/** Decoded text of the element and everything inside it (CDATA included). */
export function textOf(el: XmlElement): string {
  return el.children.map((c) => (isElement(c) ? textOf(c) : c.text)).join('');
}

/** Tag names in document order: the shape of a document, whatever its text. */
export function shapeOf(el: XmlElement): string[] {
  return [el.name, ...childElements(el).flatMap(shapeOf), `/${el.name}`];
}
