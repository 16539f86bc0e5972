import autocannon from 'autocannon';

/**
 * `/health` requests per second over `seconds` at `connections`: the yardstick every benchmark prints beside
 * its own figures, measured in the same run, so ratios hold on a machine busier or faster than this one.
 */
export async function healthRps(baseUrl: string, connections = 50, seconds = 5): Promise<number> {
  const result = await autocannon({ url: `${baseUrl}/health`, connections, duration: seconds });
  return Math.round(result.requests.average);
}
