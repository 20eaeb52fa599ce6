import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The run's scratch folder (the workflow bundle, the response contract's records), named after vitest's main process. */
export const runFolder = (mainPid: number = process.pid) => join(tmpdir(), `cloudsvc-test-${mainPid}`);

/** Where each test process records the operations whose answers it checked (response-contract.ts). */
export const contractFolder = (mainPid?: number) => join(runFolder(mainPid), 'contract');

/** Where each fault test process records the faults it injected and what came of them (test/faults/table.ts). */
export const faultsFolder = (mainPid?: number) => join(runFolder(mainPid), 'faults');
