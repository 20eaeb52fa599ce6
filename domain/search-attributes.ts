/**
 * The custom search attributes every workflow carries, so an administrator finds any run in the
 * Temporal UI or with `temporal workflow list --query 'CloudsvcInstance="<uuid>"'`. Every Temporal
 * we start registers them (the dev server's --search-attribute flags; the compose file's set-up).
 */
export const SEARCH_ATTRIBUTES = {
  instance: 'CloudsvcInstance',
  hypervisor: 'CloudsvcHypervisor',
  operation: 'CloudsvcOperation',
  migrationState: 'CloudsvcMigrationState',
} as const;

/** All are exact-match keywords. */
export const SEARCH_ATTRIBUTE_TYPE = 'Keyword';
