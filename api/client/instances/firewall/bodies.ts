/** The three paths of the firewall (SPEC.md §4): each answers with the whole firewall. */
export type FirewallPath = '' | '/rules' | '/enabled';
