/** The three paths of the firewall (SPEC.md §4): the whole of it, its rules, its toggle; each answers the whole. */
export type FirewallPath = `/{cloudInstance}/firewall${'' | '/rules' | '/enabled'}`;
