/** "1 request", "2 requests", "0 requests"; `plural` where adding an s is wrong ("1 pass", "2 passes"). */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A rule's duration as a reader takes it in: "840 ms" below a second, "12.3 s" above. */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
