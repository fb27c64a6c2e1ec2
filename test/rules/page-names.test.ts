/**
 * A page of a list walk is named in violations by what its request asked
 * for: every rule that walks the same request shares its pages, so the step
 * alone ("resources.list page 2") would name any of them.
 */
import { describe, expect, test } from 'vitest';
import { listRequestShown } from '../../src/core/list-request-shown.ts';
import { pageNamed } from '../../src/rules/judges/list-walks.ts';

describe('pageNamed', () => {
  test('a bare page is named by its request, filters, orders and flags in the order sent', () => {
    const request = {
      kind_id: '10',
      attributes: ['last_name'],
      filters: [
        { key: 'resource.ids', value: ['1', '2', '3'] },
        { key: 'resource.text', value: { attribute: 'last_name', value: 'Straß' } },
      ],
      orders: [{ key: 'resource.attribute', attribute: 'last_name', direction: 'asc' }],
      with_teams: true,
      with_relations: null,
      counting_mode: 'strict',
      pagination: { limit: 5, next_token: 'abc' },
    };
    expect(pageNamed('resources.list page 2', request)).toBe(
      'resources.list page 2 (attributes last_name, resource.ids (3), resource.text last_name "Straß", ' +
        'orders last_name asc, with_teams, with_relations null, counting_mode "strict", limit 5)',
    );
    expect(pageNamed('page 1', { kind_id: '10' })).toBe('resources.list page 1 (no option)');
  });

  test('a step that already names its walk is kept as it is', () => {
    const request = { kind_id: '10', pagination: { limit: null, next_token: null } };
    expect(pageNamed('row 6 of the pairwise array, page 1', request)).toBe('row 6 of the pairwise array, page 1');
    expect(pageNamed('limit 1, page 2', request)).toBe('limit 1, page 2');
    expect(listRequestShown(request)).toBe('limit null');
  });
});
