import { join } from 'node:path';
import { answered } from '../clients/answered.js';
import type { AgentSettings, AgentTask } from '../domain/agent-protocol.js';
import type { Logger } from '../platform/logger.js';
import { inSpan, startTracing, type Tracing } from '../platform/tracing.js';
import type { AgentConfig } from './config.js';
import type { HypervisorDriver } from './drivers/driver.js';
import { GuestInventory } from './guest-inventory.js';
import { CredentialRefused, PanelClient, sleep } from './panel-client.js';
import { RunningSteps } from './running-steps.js';
import { StateFile } from './state-file.js';
import { runTask } from './task-runner.js';

export const AGENT_VERSION = '0.1.0';

interface SavedCredential {
  credential: string;
  hypervisor_uuid: string;
  settings: AgentSettings;
}

/**
 * The reference agent: enrolls once (keeping its credential in a file), then heartbeats,
 * long-polls for tasks, runs up to AGENT_CONCURRENCY of them at once on the driver, and sends
 * metric samples and the inventory of the guests it holds. It ends when stopped, or when the panel refuses its credential (revoked).
 */
export class Agent {
  readonly #stop = new AbortController();
  readonly #panel: PanelClient;
  readonly #credentialFile: StateFile<SavedCredential | null>;
  readonly #tracing: Tracing | undefined;
  readonly #steps: RunningSteps;
  readonly #inventory: GuestInventory;
  #settings: AgentSettings | undefined;
  #fatal: Error | undefined;
  hypervisorId: string | undefined;

  constructor(
    private readonly config: AgentConfig,
    private readonly driver: HypervisorDriver,
    private readonly logger: Logger,
  ) {
    this.#panel = new PanelClient(config.AGENT_PANEL_URL, logger, this.#stop.signal);
    this.#credentialFile = new StateFile(join(config.AGENT_STATE_DIR, 'credential.json'), () => null);
    this.#tracing = startTracing(config, 'cloudsvc-agent');
    this.#steps = new RunningSteps(logger);
    this.#inventory = new GuestInventory(driver, this.#panel, config.AGENT_INVENTORY_INTERVAL_MS);
  }

  /** Runs until stopped; rejects with the reason when the agent cannot go on. */
  async run(): Promise<void> {
    await this.#enroll();
    const loops = [
      this.#every(
        () => this.#settings!.heartbeat_interval_ms,
        () => this.#heartbeat(),
      ),
      this.#every(
        () => this.#settings!.heartbeat_interval_ms,
        () => this.#inventory.report(),
      ),
      this.#every(
        () => this.config.AGENT_METRICS_INTERVAL_MS,
        () => this.#sendMetrics(),
        // Agents started together (a fleet after the panel or a rack came back) would otherwise
        // send at the same instant every interval: 500 at once held each call 2 s (bench:scale).
        Math.random() * this.config.AGENT_METRICS_INTERVAL_MS,
      ),
      this.#poll(),
    ];
    await Promise.all(loops);
    await this.#tracing?.shutdown();
    if (this.#fatal) throw this.#fatal;
  }

  stop(): void {
    this.#stop.abort();
  }

  #die(error: Error): void {
    if (!this.#fatal) {
      this.#fatal = error;
      this.logger.error('agent stopping', { error: error.message });
    }
    this.#stop.abort();
  }

  async #enroll(): Promise<void> {
    const saved = this.#credentialFile.read();
    if (saved) {
      this.#use(saved);
      this.logger.info('agent credential loaded', { hypervisor_id: saved.hypervisor_uuid });
      return;
    }
    const token = this.config.AGENT_ENROLLMENT_TOKEN;
    if (!token) throw new Error('no saved credential and no AGENT_ENROLLMENT_TOKEN to enroll with');
    const body = answered(
      await this.#panel.api.POST('/enroll', { body: { token, agent_version: AGENT_VERSION } }),
    );
    const credential = {
      credential: body.attributes.credential,
      hypervisor_uuid: body.attributes.hypervisor_uuid,
      settings: body.attributes.settings,
    };
    this.#credentialFile.write(credential);
    this.#use(credential);
    this.logger.info('agent enrolled', { hypervisor_id: credential.hypervisor_uuid });
  }

  #use(saved: SavedCredential): void {
    this.#panel.credential = saved.credential;
    this.hypervisorId = saved.hypervisor_uuid;
    this.#settings = saved.settings;
  }

  async #heartbeat(): Promise<void> {
    const body = answered(
      await this.#panel.api.POST('/heartbeat', {
        body: {
          agent_version: AGENT_VERSION,
          capabilities: this.config.AGENT_CAPABILITIES,
          free: this.driver.freeCapacity(),
        },
      }),
    );
    this.#settings = body.attributes.settings;
  }

  async #sendMetrics(): Promise<void> {
    const samples = this.driver.sample(new Date());
    if (samples.length > 0) await this.#panel.api.POST('/metrics', { body: { samples } });
  }

  /**
   * One poll open at a time, while a task could start: each task offered runs beside the others,
   * up to AGENT_CONCURRENCY, and the next poll goes out at once. An idle agent holds one poll, not
   * one per slot: 500 idle agents' 2,000 polls cost their API a fifth of a core (bench:scale).
   */
  async #poll(): Promise<void> {
    const running = new Set<Promise<void>>();
    while (!this.#stop.signal.aborted) {
      if (running.size >= this.config.AGENT_CONCURRENCY) {
        await Promise.race(running);
        continue;
      }
      try {
        const { data: offered } = await this.#panel.api.GET('/tasks/next', {
          params: { query: { wait_ms: this.#settings!.poll_wait_ms } },
        });
        if (!offered) continue; // 204: nothing within the wait
        const run = this.#run(offered.attributes)
          .catch((error) => this.#handle(error))
          .finally(() => running.delete(run));
        running.add(run);
      } catch (error) {
        this.#handle(error);
      }
    }
    await Promise.all(running);
  }

  #run(task: AgentTask['attributes']): Promise<void> {
    // The task is a span of the step that queued it; its reports carry it to the panel.
    return inSpan(
      this.#tracing,
      `agent task ${task.type}`,
      task.trace_parent,
      { 'cloudsvc.task_id': task.task_id, 'cloudsvc.attempt': task.attempt },
      () =>
        this.#steps.run(task, this.#stop.signal, (signal) =>
          runTask(task, this.driver, this.#panel, this.#settings!, this.logger, signal, (e) => this.#die(e)),
        ),
    );
  }

  /** Runs `work` after `firstAfterMs`, then every `interval()` ms until the agent stops. */
  async #every(interval: () => number, work: () => Promise<void>, firstAfterMs = 0): Promise<void> {
    if (firstAfterMs > 0) await sleep(firstAfterMs, this.#stop.signal);
    while (!this.#stop.signal.aborted) {
      try {
        await work();
      } catch (error) {
        this.#handle(error);
      }
      await sleep(interval(), this.#stop.signal);
    }
  }

  #handle(error: unknown): void {
    if (this.#stop.signal.aborted) return;
    if (error instanceof CredentialRefused) this.#die(error);
    else this.logger.warn('agent request failed', { error: (error as Error).message });
  }
}
