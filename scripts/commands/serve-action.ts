/**
 * The `hra serve` action: runs the gateway until SIGTERM or SIGINT, which drain it gracefully (readiness
 * fails, the listener closes, in-flight requests complete; exit 0 within 10 s, 1 if requests had to be cut
 * off). SIGHUP, or a new file at the dataset path (a repointed `current.sqlite`, checked every second),
 * checks the new snapshot and swaps to it; a refused one is logged and the old one keeps serving. Apart from
 * the command's registration (serve-command.ts), so that other commands do not load the gateway.
 */
import { ConfigError, parseGatewayConfig } from '../../gateway/config/parse-gateway-config.ts';
import { createGatewayLogger } from '../../gateway/observability/gateway-logger.ts';
import { fileIdentity } from '../../gateway/files/file-identity.ts';
import type { SnapshotHashInFlight } from '../../gateway/snapshot/start-snapshot-hash.ts';
import { startGateway, type GatewayLog, type RunningGateway } from '../../gateway/start-gateway.ts';
import { CliFailure } from '../cli-failure.ts';
import { describeStartFailure } from './describe-start-failure.ts';
import { requireFile } from './require-path.ts';

/** Shutdown ends within this bound: the process exits by then whatever is still running. */
const SHUTDOWN_BOUND_MS = 10_000;
/** In-flight requests are cut off here, leaving the rest of the bound to close the stores. */
const DRAIN_DEADLINE_MS = 9_000;
/** How long a keep-alive connection idle at SIGTERM may still send one request (see drain-server.ts). */
const DRAIN_IDLE_GRACE_MS = 1_000;
/** How often the dataset path is checked for a new file (a repointed link or a file renamed over it). */
const LINK_POLL_MS = 1_000;

/** What the entry point hands `hra serve`. */
export interface ServeCommandOptions {
  /** The hash of the dataset started before this module was loaded (scripts/hra.ts); the start-up check takes it over. */
  readonly snapshotHash?: SnapshotHashInFlight;
}

/** Runs `hra serve` with its parsed flags (the rows of GATEWAY_SETTINGS). */
export async function runServe(flags: Record<string, unknown>, options: ServeCommandOptions): Promise<void> {
  // Every module of the gateway is loaded by now: this module imports them all.
  const modulesLoadedMs = performance.now();
  const { snapshotHash } = options;
  let config;
  try {
    config = parseGatewayConfig(flags, process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliFailure(error.message);
    throw error;
  }
  // A directory or a missing file fails here on one line naming the setting, not as EISDIR or ENOENT.
  requireFile(config.sources.dataset, config.dataset, 'snapshot file');
  // JSON lines on stderr: stdout carries nothing but the `listening on` line once serving.
  const log: GatewayLog = createGatewayLogger({ level: config.logLevel });
  // Installed before the start-up check, whose hash can take seconds: SIGHUP's default action is to exit.
  let running: RunningGateway | undefined;
  let reloadWhenRunning = false;
  // The file last seen at the dataset path, taken before the start-up check so that a repoint during it is noticed.
  let seenFile = fileIdentity(config.dataset);
  const reload = (trigger: string) => {
    if (running === undefined) {
      reloadWhenRunning = true;
      return;
    }
    seenFile = fileIdentity(config.dataset);
    // startGateway logs swaps and refusals; an unchanged file is worth a line only when asked by SIGHUP.
    void running.reload(trigger).then((outcome) => {
      if (outcome.status === 'unchanged' && trigger === 'SIGHUP') log.info({ trigger, revision: outcome.revision }, 'SIGHUP: dataset unchanged');
    });
  };
  process.on('SIGHUP', () => reload('SIGHUP'));
  try {
    running = await startGateway(config, log, { snapshotHash });
  } catch (error) {
    // startGateway closed what it opened; the entry point ends the process if a connection lingers all the same.
    throw describeStartFailure(error, config);
  }
  const gateway = running;
  process.stdout.write(`listening on ${gateway.url}\n`);
  logStartup(log, { modulesLoadedMs, snapshotHash, listeningMs: performance.now() });
  log.info({ revision: gateway.snapshots.current.revision, dataset: config.dataset }, `serving revision ${gateway.snapshots.current.revision} from ${config.dataset}`);
  if (reloadWhenRunning) reload('SIGHUP');

  const poll = setInterval(() => {
    const file = fileIdentity(config.dataset);
    if (file !== undefined && file !== seenFile) reload('dataset repointed');
  }, LINK_POLL_MS);
  poll.unref();

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(poll);
    log.info({ signal }, `${signal}: readiness failing, draining in-flight requests`);
    setTimeout(() => {
      log.error({ signal }, `shutdown: still closing after ${SHUTDOWN_BOUND_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_BOUND_MS).unref();
    gateway.close({ idleGraceMs: DRAIN_IDLE_GRACE_MS, deadlineMs: DRAIN_DEADLINE_MS }).then(
      (outcome) => {
        if (outcome.drained) {
          log.info({ signal }, 'shutdown: drained, exiting');
          process.exit(0);
        }
        log.error({ signal, abandoned: outcome.abandoned }, `shutdown: ${outcome.abandoned} requests cut off after ${DRAIN_DEADLINE_MS} ms`);
        process.exit(1);
      },
      (error: unknown) => {
        log.error({ signal, err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** The `start-up` log line: each phase's end in milliseconds since the process began (performance.now()). */
function logStartup(log: GatewayLog, phases: { modulesLoadedMs: number; snapshotHash: SnapshotHashInFlight | undefined; listeningMs: number }): void {
  const { snapshotHash } = phases;
  const phasesMs = {
    ...(snapshotHash === undefined ? {} : { hashStarted: Math.round(snapshotHash.startedMs) }),
    modulesLoaded: Math.round(phases.modulesLoadedMs),
    ...(snapshotHash?.hashedMs === undefined ? {} : { hashDone: Math.round(snapshotHash.hashedMs) }),
    listening: Math.round(phases.listeningMs),
  };
  const hash = phasesMs.hashDone === undefined ? 'no early hash' : `hash ${phasesMs.hashStarted}-${phasesMs.hashDone} ms`;
  log.info({ phasesMs }, `start-up: listening ${phasesMs.listening} ms after the process began (modules loaded at ${phasesMs.modulesLoaded} ms, ${hash})`);
}
