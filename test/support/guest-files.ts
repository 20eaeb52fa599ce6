/**
 * The files that boot real guests, and how many of them run at once whatever the number of
 * workers: a TCG guest takes a core while it boots, and on two cores a third slows every guest
 * beside it past its timeouts. The sequencer plans with it (test/longest-first.ts), and
 * test/support/guest-slots.ts holds the run to it.
 */
export const GUEST_SLOTS = 2;

const GUEST_FILE = /(^|\/)test\/qemu\/[^/]+(?<!\.unit)\.test\.ts$/;

/** Whether the file (a path from the project's root, or an absolute one) boots real guests. */
export const isGuestFile = (path: string) => GUEST_FILE.test(path);
