/** English for the CLI's messages: one place that knows "1 instance" and "an evacuation". */

/** `1 instance`, `2 instances`: the count with its noun, plural but for one. */
export function counted(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

/** `an instance`, `a hypervisor`: by the sound of the first letter, which for our nouns is the letter. */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}
