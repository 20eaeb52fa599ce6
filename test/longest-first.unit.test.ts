import { describe, expect, it } from 'vitest';
import { listSchedule } from './longest-first.js';

const file = (name: string, seconds: number) => ({ name, seconds });
const seconds = (f: { seconds: number }) => f.seconds;
const names = (files: { name: string }[]) => files.map((f) => f.name);

describe('the order files are handed to the workers in', () => {
  it('starts two guest files beside the longest others, and a third guest only when a slot frees', () => {
    const guests = [file('g1', 300), file('g2', 200), file('g3', 100)];
    const others = [
      file('o1', 150),
      file('o2', 120),
      ...Array.from({ length: 20 }, (_, i) => file(`s${i}`, 10)),
    ];
    const order = names(listSchedule(guests, others, seconds, 4));
    expect(order.slice(0, 4)).toEqual(['g1', 'g2', 'o1', 'o2']);
    // g2 ends at 200 s: g3 is taken then, after the short files the two free workers ran till then.
    expect(order.indexOf('g3')).toBeGreaterThan(order.indexOf('s9'));
    expect(order.indexOf('g3')).toBeLessThan(order.indexOf('s19'));
    expect([...order].sort()).toEqual(names([...guests, ...others]).sort());
  });

  it('takes the guest files that remain when nothing else is left', () => {
    const order = names(
      listSchedule([file('g1', 50), file('g2', 50), file('g3', 50)], [file('o1', 5)], seconds, 4),
    );
    expect(order).toEqual(['g1', 'g2', 'o1', 'g3']);
  });
});
