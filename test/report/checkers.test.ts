/** The checkers the reporter tests rely on must reject what they are meant to reject. */
import { describe, expect, test } from 'vitest';
import { scanHtml, shapeOfHtml } from './helpers/html-tags.ts';
import { childElements, parseXml, textOf, wellFormedProblems } from './helpers/xml-tree.ts';

describe('XML well-formedness checker', () => {
  test.each([
    ['an unclosed element', '<a><b></a>'],
    ['crossed elements', '<a><b></a></b>'],
    ['two roots', '<a/><b/>'],
    ['text after the root', '<a/>x'],
    ['a raw "<" in text', '<a>1 < 2</a>'],
    ['a raw "&" in text', '<a>this & that</a>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a raw "<" in an attribute', '<a b="<"/>'],
    ['a raw "&" in an attribute', '<a b="&"/>'],
    ['an unquoted attribute', '<a b=c/>'],
    ['a duplicate attribute', '<a b="1" b="2"/>'],
    ['attributes without white space between them', '<a b="1"c="2"/>'],
    ['"]]>" in text', '<a>]]></a>'],
    ['an unterminated CDATA section', '<a><![CDATA[x</a>'],
    ['"--" in a comment', '<a><!-- a -- b --></a>'],
    ['a NUL character', '<a>\u0000</a>'],
    ['a BEL character in CDATA', '<a><![CDATA[\u0007]]></a>'],
    ['an unpaired surrogate', '<a>\uD800</a>'],
    ['U+FFFE', '<a>\uFFFE</a>'],
    ['a reference to NUL', '<a>&#0;</a>'],
    ['a misplaced XML declaration', '<a><?xml version="1.0"?></a>'],
    ['no root', '<?xml version="1.0" encoding="UTF-8"?>\n'],
  ])('rejects %s', (_what, xml) => {
    expect(wellFormedProblems(xml)).not.toEqual([]);
  });

  test('accepts a document with a declaration, CDATA, references, comments and attributes in either quote', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<!-- c -->\n<a x="1 &amp; 2" y='&quot;'><b><![CDATA[<raw> & ]]]]><![CDATA[>]]></b>&lt;&#65;&#x42;<c/></a>\n`;
    expect(wellFormedProblems(xml)).toEqual([]);
    const root = parseXml(xml);
    expect(root.attributes).toEqual({ x: '1 & 2', y: '"' });
    expect(textOf(childElements(root, 'b')[0]!)).toBe('<raw> & ]]>');
    expect(textOf(root)).toBe('<raw> & ]]><AB');
  });
});

describe('HTML tag scanner', () => {
  test('sees tags a browser would create, and none inside escaped text', () => {
    expect(shapeOfHtml('<p>&lt;img src=x&gt; 1 < 2</p>')).toEqual(['p', '/p']);
    expect(shapeOfHtml('<p><img src=x onerror=alert(1)></p>')).toEqual(['p', 'img', '/p']);
    expect(scanHtml('<p><img src=x onerror=alert(1)></p>').tags[1]!.attributes).toEqual({
      src: 'x',
      onerror: 'alert(1)',
    });
  });

  test('a script runs to the first "</script", whatever it contains: that is how a body can break out', () => {
    const scan = scanHtml('<script>var s = "</script><img src=x>";</script>');
    expect(scan.rawText).toEqual([{ element: 'script', content: 'var s = "' }]);
    expect(scan.tags.map((t) => t.name)).toContain('img');
  });

  test('decodes text', () => {
    expect(scanHtml('<p>&lt;b&gt; &amp; &#39; &#x41;</p>').text).toBe("<b> & ' A");
  });
});
