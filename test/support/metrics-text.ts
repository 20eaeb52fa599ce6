/** The value of the series of `name` whose labels include `labels` in a Prometheus text page; 0 when there is none yet. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const braces = line.match(/^[^{ ]+(?:\{(.*)\})? (\S+)$/);
    if (!braces) continue;
    const have = (braces[1] ?? '').split(/,(?=[a-z_]+=")/);
    if (wanted.every((w) => have.includes(w))) return Number(braces[2]);
  }
  return 0;
}
