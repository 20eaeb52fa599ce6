/**
 * The baseline of the show-instance benchmark: a raw node:http server doing the same
 * primary-key read as cloudsvc's (the same SQL: the same columns, the instance of its owner,
 * here the bench's user) through `pg` with the same pool size and a named prepared statement, and
 * nothing else (no framework, no authentication, no validation, no envelope building).
 */
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const owner = process.env.BENCH_OWNER_ID;
const text =
  'select "id", "user_id", "hypervisor_id", "name", "hostname", "status", "cpu_cores", "memory_mb", "disk_mb", ' +
  '"primary_ipv4", "primary_ipv6", "virtualization", "boot_order", "timezone", "created_at", "updated_at" ' +
  'from "instances" where "id" = $1 and "user_id" = $2 and "deleted_at" is null';

const server = http.createServer(async (req, res) => {
  const id = req.url?.split('/').pop() ?? '';
  try {
    const { rows } = await pool.query({ name: 'baseline_show', text, values: [id, owner] });
    const body = JSON.stringify(
      rows[0] ? { object: 'cloud_instance', attributes: rows[0] } : { error: 'not found' },
    );
    res.writeHead(rows[0] ? 200 : 404, { 'content-type': 'application/json' }).end(body);
  } catch {
    res.writeHead(500).end();
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => server.close(() => process.exit(0)));
