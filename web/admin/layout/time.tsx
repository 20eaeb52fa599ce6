/** A time as administrators read it on the pages: UTC, to the second, machine-readable too. */
export const When = (props: { at: string | null | undefined }) =>
  props.at ? (
    <time datetime={props.at}>{props.at.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC')}</time>
  ) : (
    <>—</>
  );

/** The first block of a uuid: enough to tell rows apart at a glance. */
export const shortId = (uuid: string) => uuid.slice(0, 8);
