import proxyAddr from 'proxy-addr';

/**
 * `TRUSTED_IPS` (IPs or CIDRs) as a test on `request.ip`, the client address Fastify computes through
 * TRUSTED_PROXIES: the station's own swarm, exempt from limits and shown what strangers are not.
 */
export function trustedAddresses(list: readonly string[]): (ip: string) => boolean {
  const compiled = proxyAddr.compile([...list]);
  return (ip) => compiled(ip, 0);
}
