/** Blockers, warnings or reasons, each a stable code and what it means here. */
export function Findings(props: { items: readonly { code: string; detail: string }[] }) {
  return (
    <ul>
      {props.items.map((f) => (
        <li>
          <span class="mono">{f.code}</span>: {f.detail}
        </li>
      ))}
    </ul>
  );
}
