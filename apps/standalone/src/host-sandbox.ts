import { HOST_MESSAGE_FORMATS, ISO_HOST_FORMATS } from '@app/contracts';
import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { HostConnectorConfig, hostConnectorConfigFromEnv } from '../../host-connector/src/config/host-connector.config';
import { HostSimulator, simulatorOptionsFromEnv, startHostSimulator } from '../../host-simulator/src';

/** The host side of standalone: the connector's configuration and, unless turned off, the simulator it talks to. */
export interface HostSandbox {
  config: HostConnectorConfig;
  /** Undefined with HOST_SIMULATOR=off. */
  simulator?: HostSimulator;
  warnings: string[];
  close(): Promise<void>;
}

/** The simulator's port variables (its config.ts names them so): free ports unless set. */
const SIMULATOR_PORT_VARIABLES = [...ISO_HOST_FORMATS.map((format) => `HOST_SIM_${format}_PORT`), 'HOST_SIM_HTTP_PORT'];

/**
 * Standalone runs the acquirer host simulator next to the host connector, so that a demo signs on
 * and authorizes end to end on one machine: the simulator takes free loopback ports (or
 * HOST_SIM_<FORMAT>_PORT / HOST_SIM_HTTP_PORT), and every host format the environment gives no
 * HOST_DEFAULT_<FORMAT>_URL goes to it. An acceptance whose acquirer names a `connUrl` still goes
 * there. HOST_SIMULATOR=off leaves the simulator out: formats without an address are then
 * unavailable, as in the distributed mode.
 */
export async function startHostSandbox(env: NodeJS.ProcessEnv = process.env): Promise<HostSandbox> {
  if (env.HOST_SIMULATOR === 'off') {
    return { config: hostConnectorConfigFromEnv({ standalone: true, developmentZmk: DEVELOPMENT_ZMK, env }), warnings: [], close: async () => undefined };
  }
  const simulatorEnv: NodeJS.ProcessEnv = { ...env };
  for (const name of SIMULATOR_PORT_VARIABLES) if (!simulatorEnv[name]?.trim()) simulatorEnv[name] = '0';
  const { options, warnings } = simulatorOptionsFromEnv(simulatorEnv);
  const simulator = await startHostSimulator(options);
  try {
    const connectorEnv: NodeJS.ProcessEnv = { ...env };
    for (const format of HOST_MESSAGE_FORMATS) {
      const url = simulator.connUrls[format as keyof HostSimulator['connUrls']];
      const name = `HOST_DEFAULT_${format}_URL`;
      if (url !== undefined && !connectorEnv[name]) connectorEnv[name] = url;
    }
    const config = hostConnectorConfigFromEnv({ standalone: true, developmentZmk: DEVELOPMENT_ZMK, env: connectorEnv });
    return { config, simulator, warnings, close: () => simulator.close() };
  } catch (error) {
    await simulator.close();
    throw error;
  }
}
