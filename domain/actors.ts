/** Who asked: recorded in the activity log and on the operation. */
export type Actor =
  | { readonly type: 'user'; readonly userId: string }
  | { readonly type: 'admin'; readonly userId: string }
  | { readonly type: 'system'; readonly name: string };

export const actorName = (actor: Actor): string =>
  actor.type === 'system' ? `system:${actor.name}` : `${actor.type}:${actor.userId}`;

export const actorUserId = (actor: Actor): string | null => (actor.type === 'system' ? null : actor.userId);

/** A customer asking through the Client API, for their own resources. */
export type Customer = Extract<Actor, { type: 'user' }>;

/** A person asking through an API: a customer for their own resources, an administrator for any. */
export type Asker = Extract<Actor, { type: 'user' | 'admin' }>;
