import { HOST_MESSAGE_FORMATS } from '@app/contracts';
import { HostConnectorConfig } from '../../host-connector/src';
import { HostSimulator, simulatorOptionsFrom, startHostSimulator } from '../../host-simulator/src';
import { HostSandboxSettings, standaloneConnectorConfig } from './config/standalone.config';

/** The host side of standalone: the connector's configuration and, unless turned off, the simulator it talks to. */
export interface HostSandbox {
  config: HostConnectorConfig;
  /** Undefined with HOST_SIMULATOR=off. */
  simulator?: HostSimulator;
  warnings: string[];
  close(): Promise<void>;
}

/**
 * Standalone runs the acquirer host simulator next to the host connector, so that a demo signs on
 * and authorizes end to end on one machine: the simulator takes free loopback ports (or
 * HOST_SIM_<FORMAT>_PORT / HOST_SIM_HTTP_PORT), and every host format the environment gives no
 * HOST_DEFAULT_<FORMAT>_URL goes to it. An acceptance whose acquirer names a `connUrl` still goes
 * there. HOST_SIMULATOR=off leaves the simulator out: formats without an address are then
 * unavailable, as in the distributed mode.
 */
export async function startHostSandbox(settings: HostSandboxSettings): Promise<HostSandbox> {
  if (settings.values.HOST_SIMULATOR === 'off') {
    return { config: standaloneConnectorConfig(settings), warnings: [], close: async () => undefined };
  }
  const { options, warnings } = simulatorOptionsFrom(settings.values, settings.production);
  const simulator = await startHostSimulator(options);
  try {
    const values = { ...settings.values };
    for (const format of HOST_MESSAGE_FORMATS) {
      const url = simulator.connUrls[format as keyof HostSimulator['connUrls']];
      const name = `HOST_DEFAULT_${format}_URL` as const;
      if (url !== undefined && !values[name]) values[name] = url;
    }
    return { config: standaloneConnectorConfig({ ...settings, values }), simulator, warnings, close: () => simulator.close() };
  } catch (error) {
    await simulator.close();
    throw error;
  }
}
