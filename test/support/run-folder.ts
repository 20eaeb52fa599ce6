import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The run's scratch folder (the workflow bundle, the response contract's records), named after vitest's main process. */
export const runFolder = (mainPid: number = process.pid) => join(tmpdir(), `cloudsvc-test-${mainPid}`);

/** Where each test process records the operations whose answers it checked (response-contract.ts). */
export const contractFolder = (mainPid?: number) => join(runFolder(mainPid), 'contract');
