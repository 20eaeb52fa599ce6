// Which events a reader of the stream or the list is shown (docs/events.md "The stream"): written
// once as conditions on the outbox's columns, which the table's read turns into SQL and the
// stream applies to the feed's batches in memory.

/** Which events a reader is shown: a customer's own (`userId`) or all (null), of some types, of one resource. */
export interface EventFilter {
  readonly userId: string | null;
  readonly types?: readonly string[];
  readonly resourceId?: string;
  readonly since?: Date;
}

/** An event as the filter sees it: the outbox's columns it reads. */
export interface FilteredEvent {
  readonly user_id: string | null;
  readonly type: string;
  readonly resource_id: string;
  readonly occurred_at: Date;
}

export type EventCondition =
  | { readonly column: 'user_id' | 'resource_id'; readonly op: '='; readonly value: string }
  | { readonly column: 'type'; readonly op: 'in'; readonly value: readonly string[] }
  | { readonly column: 'occurred_at'; readonly op: '>='; readonly value: Date };

/** The conditions an event meets, every one, to be shown. */
export function eventConditions(filter: EventFilter): EventCondition[] {
  const conditions: EventCondition[] = [];
  if (filter.userId !== null) conditions.push({ column: 'user_id', op: '=', value: filter.userId });
  if (filter.types && filter.types.length > 0)
    conditions.push({ column: 'type', op: 'in', value: filter.types });
  if (filter.resourceId !== undefined)
    conditions.push({ column: 'resource_id', op: '=', value: filter.resourceId });
  if (filter.since !== undefined) conditions.push({ column: 'occurred_at', op: '>=', value: filter.since });
  return conditions;
}

/** The filter as a test of an event already read. */
export function eventPredicate(filter: EventFilter): (event: FilteredEvent) => boolean {
  const conditions = eventConditions(filter);
  return (event) => conditions.every((condition) => meets(event, condition));
}

function meets(event: FilteredEvent, condition: EventCondition): boolean {
  switch (condition.op) {
    case '=':
      return event[condition.column] === condition.value;
    case 'in':
      return condition.value.includes(event[condition.column]);
    case '>=':
      return event[condition.column] >= condition.value;
  }
}
