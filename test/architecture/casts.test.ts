/**
 * Types tell the truth: a cast (`as X`, not `as const`) or a non-null `!`
 * promises what the compiler cannot check. The source keeps few of them, and
 * none through `unknown`; this counts them with the compiler's own parser, so
 * a new one is a conscious choice made here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

interface Count {
  casts: string[];
  throughUnknown: string[];
  nonNull: string[];
}

export function countPromises(file: string, text: string): Count {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const count: Count = { casts: [], throughUnknown: [], nonNull: [] };
  const at = (node: ts.Node): string =>
    `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(source) !== 'const') {
      count.casts.push(at(node));
      const inner = node.expression;
      if (ts.isAsExpression(inner) && inner.type.kind === ts.SyntaxKind.UnknownKeyword)
        count.throughUnknown.push(at(node));
    }
    if (ts.isNonNullExpression(node)) count.nonNull.push(at(node));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

function countIn(top: string): Count {
  const all: Count = { casts: [], throughUnknown: [], nonNull: [] };
  for (const file of sourceFiles(top)) {
    const one = countPromises(file, readFileSync(join(ROOT, file), 'utf8'));
    all.casts.push(...one.casts);
    all.throughUnknown.push(...one.throughUnknown);
    all.nonNull.push(...one.nonNull);
  }
  return all;
}

test('src keeps its casts and non-null assertions few, and none through unknown', () => {
  const count = countIn('src');
  expect(count.throughUnknown).toEqual([]);
  expect(count.casts.length, count.casts.join('\n')).toBeLessThanOrEqual(CAST_LIMIT);
  expect(count.nonNull.length, count.nonNull.join('\n')).toBeLessThanOrEqual(NON_NULL_LIMIT);
});

test('the counter sees every form (so the check above can fail)', () => {
  const count = countPromises(
    'x.ts',
    [
      'const a = b as string;',
      'const c = <number>d;',
      'const e = f as unknown as G;',
      'const h = i!.j;',
      'const k = [1] as const;',
    ].join('\n'),
  );
  expect(count.casts).toEqual(['x.ts:1', 'x.ts:2', 'x.ts:3', 'x.ts:3']);
  expect(count.throughUnknown).toEqual(['x.ts:3']);
  expect(count.nonNull).toEqual(['x.ts:4']);
});

/** The most the source may hold; lower them as casts go, never raise them without a reason in the commit. */
const CAST_LIMIT = 16;
const NON_NULL_LIMIT = 23;
