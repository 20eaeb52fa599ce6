/** A step's or a failure's detail (already without secrets: wire/serializers/moves/migration.ts), as key: value. */
export function Detail(props: { of: Record<string, unknown> | null }) {
  const entries = Object.entries(props.of ?? {});
  if (entries.length === 0) return null;
  return (
    <span class="detail">
      {entries.map(([key, value], i) => (
        <>
          {i > 0 && '; '}
          {key}: <span class="mono">{typeof value === 'string' ? value : JSON.stringify(value)}</span>
        </>
      ))}
    </span>
  );
}
