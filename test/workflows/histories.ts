import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root.js';
import type { History } from '@temporalio/worker';
import type { RecordedHistory } from '../../worker/replay.js';

/**
 * Recorded histories, one `<workflowType>-<scenario>.json` each, in Temporal's proto JSON (the
 * format of `historyToJSON` and `temporal workflow show --output json`): what running workflows
 * look like.
 */
export const HISTORIES_DIR = fileURLToPath(new URL('../fixtures/histories/', import.meta.url));

/*
 * The SDK's historyToJSON/historyFromJSON throw "type must be a Type" in this install: npm gives
 * @temporalio/common and @temporalio/proto a nested protobufjs each (the top level holds gRPC's
 * protobufjs 7), and the one checks the other's types. The same conversion, done with the
 * protobufjs that @temporalio/proto's types come from, writes and reads the same files.
 */
const protojson = createRequire(createRequire(import.meta.url).resolve('@temporalio/proto'))(
  'protobufjs/ext/protojson',
) as {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): History | null;
};
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType(
  'temporal.api.history.v1.History',
);

/** Every fixture, named by its file (which also stands as its workflow id in a replay). */
export function readHistoryFixtures(): RecordedHistory[] {
  return readdirSync(HISTORIES_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const json = JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8'));
      const history = protojson.fromJson(historyType, json, { ignoreUnknownFields: true });
      if (!history) throw new Error(`${file} is not a workflow history`);
      return { workflowId: basename(file, '.json'), history };
    });
}

/**
 * Writes a new fixture; one that exists is kept, since it stands for runs that may still be going.
 * Returns whether the file was written.
 */
export function writeHistoryFixture(name: string, history: History): boolean {
  const path = join(HISTORIES_DIR, `${name}.json`);
  if (existsSync(path)) return false;
  const message = proto.temporal.api.history.v1.History.fromObject(history);
  writeFileSync(path, `${JSON.stringify(protojson.toJson(historyType, message), null, 2)}\n`);
  return true;
}
