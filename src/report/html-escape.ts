import { printable } from './printable.ts';

/** Every string that did not come from this file's authors goes through here: in text and in quoted attributes alike. */
export function escapeHtml(text: string): string {
  return printable(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
