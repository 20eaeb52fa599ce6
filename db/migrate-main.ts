import { createDatabase } from './database.js';
import { migrateToLatest } from './migrator.js';

// `npm run migrate`: brings the database of DATABASE_URL up to date.
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is required');
  process.exit(2);
}
const { db, close } = createDatabase({
  url,
  poolSize: 1,
  namedStatements: false,
  applicationName: 'cloudsvc-migrate',
});
try {
  const { applied } = await migrateToLatest(db);
  console.log(applied.length === 0 ? 'database is up to date' : `applied: ${applied.join(', ')}`);
} finally {
  await close();
}
