/** The small text tools the reports share. */
import { describe, expect, test } from 'vitest';
import { clip, replayCommand } from '../../src/report/describe-result.ts';
import { escapeHtml } from '../../src/report/html-escape.ts';
import { prettyJson } from '../../src/report/pretty-json.ts';
import { printable } from '../../src/report/printable.ts';
import { compareSections } from '../../src/report/sections.ts';
import { shellWord, singleQuote } from '../../src/report/shell-quote.ts';
import { cdata, xmlAttr } from '../../src/report/xml.ts';
import { fixtureRun } from '../fixtures/run-result/fixture-run.ts';

describe('printable', () => {
  test('controls become control pictures, non-characters and unpaired surrogates U+FFFD; the rest is untouched', () => {
    expect(printable('a\u0000b\u0007\u001F\t\n\r')).toBe('a\u2400b\u2407\u241F\t\n\r');
    expect(printable('\uD800x\uDC00\uFFFE\uFFFF')).toBe('\uFFFDx\uFFFD\uFFFD\uFFFD');
    expect(printable('😀 é \u007F')).toBe('😀 é \u007F');
  });
});

describe('escaping', () => {
  test('HTML: markup characters and both quotes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  test('XML attributes keep tabs and line breaks as references (a parser would turn raw ones into spaces)', () => {
    expect(xmlAttr('a\tb\nc\rd"')).toBe('a&#9;b&#10;c&#13;d&quot;');
  });

  test('CDATA splits every "]]>"', () => {
    expect(cdata('x]]>y]]>')).toBe('<![CDATA[x]]]]><![CDATA[>y]]]]><![CDATA[>]]>');
  });
});

describe('prettyJson', () => {
  test('indents JSON and keeps every token as sent', () => {
    expect(prettyJson('{"a":[1,12345678901234567890,1e999],"b":{},"c":[],"d":"x,\\"{"}')).toBe(
      '{\n  "a": [\n    1,\n    12345678901234567890,\n    1e999\n  ],\n  "b": {},\n  "c": [],\n  "d": "x,\\"{"\n}',
    );
  });

  test('leaves anything that is not JSON alone', () => {
    expect(prettyJson('<html>{"a":1}')).toBe('<html>{"a":1}');
    expect(prettyJson('')).toBe('');
  });
});

describe('compareSections', () => {
  test('reading order, numbers compared as numbers', () => {
    expect(['§5', '§4.10', '§4.9', '§4.1', '§7', '§4'].sort(compareSections)).toEqual([
      '§4',
      '§4.1',
      '§4.9',
      '§4.10',
      '§5',
      '§7',
    ]);
  });
});

describe('clip', () => {
  test('says how much was left out and never splits a surrogate pair', () => {
    expect(clip('abcdef', 4)).toBe('abcd\n… (2 more characters)');
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('a😀b', 2)).toBe('a\n… (3 more characters)');
  });
});

describe('shell words', () => {
  test('safe words stay bare, others are single-quoted', () => {
    expect(shellWord('3:1:0')).toBe('3:1:0');
    expect(shellWord("a b'c")).toBe(`'a b'\\''c'`);
    expect(singleQuote('')).toBe("''");
  });
});

describe('replayCommand', () => {
  test('an example rule needs no seed; a property gets the run seed when it has no replay of its own', () => {
    const run = fixtureRun();
    const example = run.results.find((r) => r.kind === 'example')!;
    expect(replayCommand(example, run)).toBe(
      `npx directory-conformance run --fault pagination-no-trailing-empty-page --rule ${example.ruleId}`,
    );
    const property = { ...run.results.find((r) => r.kind === 'property')!, replay: undefined };
    expect(replayCommand(property, { ...run, target: { ...run.target, replayArgs: undefined } })).toBe(
      `npx directory-conformance run --rule ${property.ruleId} --seed ${run.options.seed}`,
    );
  });
});
