/**
 * `probe`'s answer, asked again only once it is `maxAgeMs` old: a supervisor or load balancer polling
 * `/health` must not turn into a system call per probe. A failed answer is not kept: the next call asks again.
 */
export function recentAnswer<T>(
  probe: () => Promise<T>,
  maxAgeMs: number,
  now: () => number,
): () => Promise<T> {
  let last: { at: number; answer: Promise<T> } | null = null;
  return () => {
    const at = now();
    if (last && at - last.at < maxAgeMs) return last.answer;
    const answer = probe();
    const kept = { at, answer };
    last = kept;
    answer.catch(() => {
      if (last === kept) last = null;
    });
    return answer;
  };
}
