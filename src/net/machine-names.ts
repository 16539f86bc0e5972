import { hostname, networkInterfaces } from 'node:os';

/**
 * The names this machine answers to on its networks: its host name and, for a bare one, its mDNS name
 * (`<host>.local`, what phones on the LAN type), and the addresses of its interfaces (IPv6 in brackets, as
 * URLs write them). Lower case, as `URL.hostname` gives them.
 */
export function machineNames(): string[] {
  const names: string[] = [];
  const machine = hostname().toLowerCase();
  if (machine !== '') names.push(machine, ...(machine.includes('.') ? [] : [`${machine}.local`]));
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? [])
      names.push(entry.family === 'IPv6' ? `[${entry.address}]` : entry.address);
  return names;
}
