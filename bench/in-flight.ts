/**
 * A closed loop `width` wide: `count` runs of `run(i, slot)`, a new one started in a slot as its
 * last one ends, so that `width` are in flight until the last ones drain. Returns each run's result in the order they
 * were started, and the wall time from the first start to the last end.
 */
export async function inFlight<T>(
  count: number,
  width: number,
  run: (i: number, slot: number) => Promise<T>,
): Promise<{ results: T[]; wallMs: number }> {
  const results: T[] = new Array(count);
  let next = 0;
  const slot = async (slot: number) => {
    while (next < count) {
      const i = next++;
      results[i] = await run(i, slot);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(width, count) }, (_, s) => slot(s)));
  return { results, wallMs: performance.now() - started };
}
