/**
 * Request bodies as text, so that a body can carry what `JSON.stringify` cannot make: numbers
 * beyond a double, nesting deeper than its stack, a `__proto__` key.
 */

/** JSON text placed as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

export type Path = readonly (string | number)[];

export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : jsonText(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`);
    return `{${members.join(',')}}`;
  }
  // Lone surrogates come out as \ud800 escapes, which the server parses back into lone surrogates.
  return JSON.stringify(value ?? null);
}

/** A copy of `value` with `replacement` at `path`, copying only the containers on the way. */
export function withAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = withAt(value[head as number], rest, replacement);
    return copy;
  }
  const source = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  return withField({ ...source }, String(head), withAt(source[String(head)], rest, replacement));
}

/** A copy of `value` without what is at `path`. */
export function withoutAt(value: unknown, path: Path): unknown {
  if (path.length === 0) return undefined;
  const parent = path.slice(0, -1);
  const last = path[path.length - 1]!;
  const container = parent.reduce<unknown>(
    (at, key) => (at as Record<string, unknown>)?.[key as string],
    value,
  );
  if (Array.isArray(container))
    return withAt(
      value,
      parent,
      container.filter((_, i) => i !== last),
    );
  if (container === null || typeof container !== 'object') return value;
  const { [String(last)]: _, ...kept } = container as Record<string, unknown>;
  return withAt(value, parent, kept);
}

/** Sets an own field, even one named `__proto__`, which plain assignment would not create. */
export function withField<T extends object>(target: T, key: string, value: unknown): T {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}
