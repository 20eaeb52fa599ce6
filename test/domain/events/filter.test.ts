import { describe, expect, it } from 'vitest';
import { eventPredicate } from '../../../domain/events/filter.js';

const event = {
  user_id: 'alice',
  type: 'instance.suspended',
  resource_id: 'r-1',
  occurred_at: new Date('2026-12-01T00:00:00Z'),
};

/** docs/events.md "The stream": a stream shows of the feed's batches what the list would show. */
describe('the event filter, on an event already read', () => {
  it('shows an administrator (no user) every event, and a customer only their own', () => {
    expect(eventPredicate({ userId: null })(event)).toBe(true);
    expect(eventPredicate({ userId: 'alice' })(event)).toBe(true);
    expect(eventPredicate({ userId: 'bob' })(event)).toBe(false);
    expect(eventPredicate({ userId: 'alice' })({ ...event, user_id: null })).toBe(false);
  });

  it('keeps the types, the resource and the time asked for, all of them', () => {
    const shown = eventPredicate({
      userId: 'alice',
      types: ['instance.suspended', 'instance.unsuspended'],
      resourceId: 'r-1',
      since: new Date('2026-12-01T00:00:00Z'),
    });
    expect(shown(event)).toBe(true);
    expect(shown({ ...event, type: 'instance.created' })).toBe(false);
    expect(shown({ ...event, resource_id: 'r-2' })).toBe(false);
    expect(shown({ ...event, occurred_at: new Date('2026-11-30T23:59:59Z') })).toBe(false);
    // No types asked for is every type.
    expect(eventPredicate({ userId: 'alice', types: [] })({ ...event, type: 'instance.created' })).toBe(true);
  });
});
